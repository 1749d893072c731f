//! The snippets an author pastes to embed the lab, written in one place: the **Embed** button
//! shows them, the README quotes them (a test holds the two equal), and the end-to-end test
//! pastes the button's output into a page of another origin.
//!
//! - [`with_script`]: the iframe and a small listener that sizes it to the height the lab
//!   reports (`{"context":"iframe.resize","height":H}`, posted by the embedded page whenever its
//!   height changes). The listener finds its frames by the `data-parallelism-lab` attribute, so
//!   one page can hold several labs.
//! - [`fixed_height`]: the iframe alone, for hosts that strip scripts, with a height that fits
//!   the charts the author chose in an article column of 600 to 800 px.
//!
//! What always holds: the URL goes into the attribute escaped; the snippets carry nothing but
//! the URL, the title and the size.

use crate::ui::pure::embed::{ChartId, ChartsShown};
use crate::ui::pure::state::LoadKind;

/// The `context` of the height message the embedded page posts.
pub const RESIZE_CONTEXT: &str = "iframe.resize";
/// The attribute that marks a lab's iframe for the resize listener.
pub const FRAME_ATTRIBUTE: &str = "data-parallelism-lab";
/// The iframe's accessible title.
pub const FRAME_TITLE: &str = "Parallelism Lab: how an SSD turns parallel flash into performance";
/// The iframe's height before the first message arrives (the script then fits it).
const FIRST_HEIGHT_PX: u32 = 720;
/// Height of the embedded page without its charts (compact header, folded controls, view
/// switch, readout, legend, compare bar, footer), measured in Chromium at 600 to 760 px wide,
/// rounded up.
const FIXED_BASE_PX: u32 = 720;
/// Height each chart adds in that column, measured the same way, rounded up.
const FIXED_PER_CHART_PX: u32 = 560;

/// Escapes text for an HTML attribute value in double quotes.
pub fn attr_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The listener of [`with_script`].
pub fn resize_script() -> String {
    format!(
        r#"<script>
  // Parallelism Lab posts its height whenever it changes: {{"context":"{RESIZE_CONTEXT}","height":H}}
  // (as JSON text). Size each lab frame to the height it reports.
  window.addEventListener("message", (event) => {{
    for (const frame of document.querySelectorAll("iframe[{FRAME_ATTRIBUTE}]")) {{
      if (event.source !== frame.contentWindow) continue;
      let data = event.data;
      try {{ data = typeof data === "string" ? JSON.parse(data) : data; }} catch {{ return; }}
      if (data && data.context === "{RESIZE_CONTEXT}" && Number.isFinite(data.height)) {{
        frame.style.height = data.height + "px";
      }}
    }}
  }});
</script>"#
    )
}

fn iframe(url: &str, height_px: u32, marked: bool) -> String {
    let mark = if marked {
        format!(" {FRAME_ATTRIBUTE}")
    } else {
        String::new()
    };
    format!(
        "<iframe{mark} src=\"{}\"\n        title=\"{FRAME_TITLE}\"\n        width=\"100%\" height=\"{height_px}\" loading=\"lazy\" style=\"border:0\"></iframe>",
        attr_escape(url)
    )
}

/// The runnable example of an article that drives a lab with messages, beside the lab (the
/// guide's folder; `guide/src/examples/` in the repository).
pub const EXAMPLE_ARTICLE: &str = "guide/examples/scrolling-article.html";

/// The lab's own address in `url` (everything before the query).
fn lab_base(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

/// The iframe for `url`, the listener that sizes it to the lab's height, and where to read
/// how a page drives the lab as its reader scrolls.
pub fn with_script(url: &str) -> String {
    format!(
        "<!-- To move this lab as your reader scrolls, see the example {}{EXAMPLE_ARTICLE} -->\n{}\n{}",
        lab_base(url),
        iframe(url, FIRST_HEIGHT_PX, true),
        resize_script()
    )
}

/// The fixed height that fits `charts` of the view of `load` (see the module documentation);
/// the power figure holds two charts (watts and throughput per watt), and where the time goes
/// counts as two whatever the workload: a workload that writes gives it a second panel in a
/// taller box, and a frame a little too tall is better than one that cuts the lab off.
pub fn fixed_height_px(charts: ChartsShown, load: LoadKind) -> u32 {
    let n: u32 = charts
        .list()
        .into_iter()
        .filter(|c| c.in_view(load))
        .map(|c| match c {
            ChartId::Power | ChartId::Anatomy => 2,
            _ => 1,
        })
        .sum();
    FIXED_BASE_PX.saturating_add(FIXED_PER_CHART_PX.saturating_mul(n))
}

/// The iframe for `url` alone, as tall as [`fixed_height_px`] for `charts` of `load`'s view.
pub fn fixed_height(url: &str, charts: ChartsShown, load: LoadKind) -> String {
    iframe(url, fixed_height_px(charts, load), false)
}

/// The height message for a page `height_px` tall, as the embedded page posts it.
pub fn resize_message(height_px: u32) -> String {
    format!("{{\"context\":\"{RESIZE_CONTEXT}\",\"height\":{height_px}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the README and the guide's Embedding chapter, written by the same
    /// functions as the button.
    const EXAMPLE_URL: &str = "https://example.org/lab/?preset=e18dc&cap=480&qd=32&rw=randread&bs=4k&state=steady&embed=1&charts=iops&lock=rw";

    #[test]
    fn the_readme_and_the_guide_quote_exactly_the_snippets_the_embed_button_writes() {
        let docs = [
            ("README.md", include_str!("../../../README.md")),
            (
                "guide/src/embedding.md",
                include_str!("../../../guide/src/embedding.md"),
            ),
        ];
        let charts = ChartsShown::of(&[ChartId::Iops]).unwrap();
        for snippet in [
            with_script(EXAMPLE_URL),
            fixed_height(EXAMPLE_URL, charts, LoadKind::Depth),
        ] {
            for (name, text) in docs {
                assert!(
                    text.contains(&snippet),
                    "{name} lacks the snippet:\n{snippet}"
                );
            }
        }
    }

    #[test]
    fn the_url_is_escaped_and_the_script_listens_for_the_message_the_page_posts() {
        let s = with_script("https://x/?a=1&b=\"<");
        assert!(s.contains("src=\"https://x/?a=1&amp;b=&quot;&lt;\""), "{s}");
        assert!(s.contains("loading=\"lazy\"") && s.contains("title=\""));
        assert!(
            s.contains("iframe[data-parallelism-lab]")
                && s.contains("<iframe data-parallelism-lab ")
        );
        assert!(s.contains("data.context === \"iframe.resize\""));
        assert_eq!(
            resize_message(812),
            "{\"context\":\"iframe.resize\",\"height\":812}"
        );
    }

    #[test]
    fn the_fixed_height_grows_with_the_charts_chosen() {
        let one = fixed_height_px(ChartsShown::of(&[ChartId::Mix]).unwrap(), LoadKind::Depth);
        let all = fixed_height_px(ChartsShown::all(), LoadKind::Depth);
        assert_eq!(
            (one, all),
            (1280, 4640),
            "the power figure and where the time goes count twice"
        );
        let rate = fixed_height_px(ChartsShown::all(), LoadKind::Rate);
        assert_eq!(
            rate, 2960,
            "a rate shows its two charts and where the time goes, not the depth view's"
        );
        let s = fixed_height("https://x/", ChartsShown::all(), LoadKind::Depth);
        assert!(s.contains("height=\"4640\"") && !s.contains("<script"));
    }
}

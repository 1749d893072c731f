//! The page's ties to its guide, read from the guide's Markdown (`guide/src/`):
//! - every section a panel's "How does this work?" opens ([`GuidePage`]) is a chapter of the
//!   guide and a heading in it;
//! - every link example the guide gives opens the lab as written: the page's own URL parser
//!   reads it with no note (no unknown parameter, no value it had to change).

use std::path::Path;

use parallelism_lab::ui::pure::guide::GuidePage;
use parallelism_lab::ui::pure::state::LabState;
use parallelism_lab::ui::pure::url_state;

#[path = "../crates/lab/tests/guide_text/mod.rs"]
pub mod guide_text;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_section_the_page_links_to_is_a_heading_of_the_guide() {
    for page in GuidePage::ALL {
        let (chapter, anchor) = page.chapter_and_anchor();
        let path = root().join("guide/src").join(format!("{chapter}.md"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{page:?} links to {}: {e}", path.display()));
        assert!(
            guide_text::anchors(&text).iter().any(|a| a == anchor),
            "{page:?} links to #{anchor}, which {chapter}.md has no heading for"
        );
    }
}

#[test]
fn every_link_example_of_the_guide_opens_the_lab_as_written() -> std::io::Result<()> {
    let examples = guide_text::url_examples(&guide_text::guide_sources(root())?);
    assert!(
        examples.len() >= 20,
        "the guide's link examples: {examples:?}"
    );
    for query in examples {
        let parsed = url_state::parse_query(&query, LabState::default());
        assert!(
            parsed.notes.is_empty(),
            "?{query} opens with notes: {:?}",
            parsed.notes
        );
    }
    Ok(())
}

// Runs before the page is first drawn (a classic script in <head>, allowed by the CSP's
// script-src 'self'). An embedded lab (`embed=1`, as the Embed button writes it) shows a compact
// line instead of the page's masthead, so the masthead is hidden from the first paint on
// (style/main.css, `:root[data-embed]`), not shown for a second and then replaced. The app
// reads the link itself (src/ui/url_state.rs) and removes the masthead when embedded; this is
// only the first paint's hint.
if (["1", "true"].includes(new URLSearchParams(location.search).get("embed"))) {
  document.documentElement.setAttribute("data-embed", "");
}

// Starts the wasm app without an inline script, so the page's Content-Security-Policy can keep
// script-src to 'self'. Trunk writes the hashed file names into <meta name="trunk-app">
// (pattern_script in Trunk.toml); URLs are relative to the page, so any sub-path works.
const app = document.querySelector('meta[name="trunk-app"]');
const url = (name) => new URL(app.dataset[name], document.baseURI).href;
const { default: init } = await import(url("js"));
const wasm = await init({ module_or_path: url("wasm") });
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));

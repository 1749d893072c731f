// Compiles the app's wasm off the page's thread: assets/boot.js starts this worker beside the
// opening chart, posts it the wasm's address once the opening chart has drawn, and hands the
// compiled module to the app's glue. Compiled on the page, the wasm's bytes are taken in on the
// page's own thread as they arrive: on a phone at 4x CPU a task of 20 to 70 ms (README "What
// loads first"). A compiled module crosses to the page without being compiled again; its
// functions are still compiled where they first run. Answers with the module, or with
// { failed: why }, after which the page compiles it itself.
addEventListener("message", async ({ data: url }) => {
  try {
    const response = await fetch(url);
    if (!response.ok) {
      throw new Error(`${url} answered ${response.status}`);
    }
    // A server that does not say application/wasm cannot stream it (the glue checks the same).
    const module =
      response.headers.get("Content-Type") === "application/wasm"
        ? await WebAssembly.compileStreaming(response)
        : await WebAssembly.compile(await response.arrayBuffer());
    postMessage(module);
  } catch (error) {
    postMessage({ failed: String((error && error.message) || error) });
  }
});

//# allFunctionsCalledOnLoad
// (V8's eager compile hint: every function here runs as the page loads; assets/compile-hints.sh.)
// Starts the wasm app without an inline script, so the page's Content-Security-Policy can keep
// script-src to 'self'. Trunk writes the hashed file names into <meta name="trunk-app">
// (pattern_script in Trunk.toml); URLs are relative to the page, so any sub-path works.
const app = document.querySelector('meta[name="trunk-app"]');
const url = (name) => new URL(app.dataset[name], document.baseURI).href;
const { default: init } = await import(url("js"));
// Resolves once the page's current state has been drawn: after an animation frame, or after a
// tenth of a second where the browser draws none (a hidden tab, a cross-origin frame below an
// article's fold).
const NO_FRAME_WAIT_MS = 100;
const shown = () =>
  new Promise((drawn) => {
    requestAnimationFrame(() => setTimeout(drawn));
    setTimeout(drawn, NO_FRAME_WAIT_MS);
  });
// The page's masthead is drawn first: the wasm (the largest download) is asked for once a frame
// has been presented, not while the stylesheet the first paint waits for still loads.
await shown();
const beside = (name) => new URL(name, document.baseURI).href;
const nextTask = () => new Promise((next) => setTimeout(next));
// The app's wasm is compiled by a worker of its own (assets/app_compiler.js), so its bytes are
// not taken in on the page's thread, which draws and answers the reader meanwhile (README
// "What loads first"). The worker starts now, so its script has arrived by the time the wasm
// is asked for (after the opening chart, as before): no round trip more. Never fatal: without
// it the page compiles the wasm itself.
const compiler = (() => {
  try {
    return new Worker(beside("app_compiler.js"), { type: "module", name: "compiler" });
  } catch (error) {
    console.info(`Parallelism Lab: no compiler for the app's wasm (${error && error.message})`);
    return null;
  }
})();
let compilerFailed = null;
compiler?.addEventListener("error", (event) => {
  compilerFailed = event.message || "its compiler did not start";
});
// The compiled module, or the wasm's address for the page to compile where the worker cannot.
const compiledOffThread = (wasmUrl) =>
  new Promise((compiled) => {
    const onThePage = (why) => {
      compiler?.terminate();
      console.info(`Parallelism Lab: the app's wasm compiles on the page (${why})`);
      compiled(wasmUrl);
    };
    if (!compiler || compilerFailed) {
      onThePage(compilerFailed || "no compiler");
      return;
    }
    compiler.addEventListener("error", () => onThePage(compilerFailed));
    compiler.addEventListener("message", ({ data }) => {
      if (data instanceof WebAssembly.Module) {
        compiler.terminate();
        compiled(data);
      } else {
        onThePage(data && data.failed);
      }
    });
    compiler.postMessage(wasmUrl);
  });
// The opening chart (src/ui/opening_chart.rs) draws the IOPS chart from a wasm a quarter the
// size of the app's, so a reader on a slow network sees the chart and its published measurements
// before the app's download; the app's wasm is asked for once it has drawn, so the two do not
// share the network, and the app's compiling does not share the CPU with the opening chart's
// drawing (README "What loads first"). Its wasm starts, it lays out its frame, and it draws the
// chart once that frame is shown, each in a task of its own, so none is long. Never fatal:
// without it the app draws the chart itself, as before.
try {
  // Its wasm is asked for beside its glue, not once the glue has arrived: one round trip fewer.
  const openingChartWasm = fetch(beside("opening-chart_bg.wasm"));
  const openingChart = await import(beside("opening-chart.js"));
  await openingChart.default({ module_or_path: openingChartWasm });
  await nextTask();
  openingChart.show();
  await shown();
  openingChart.draw();
} catch (error) {
  console.info(`Parallelism Lab: no opening chart (${error && error.message})`);
}
// The model's first worker starts now, beside the app's download, not once the app has
// started: its files arrive and the engine compiles while the app's wasm arrives and compiles,
// so the app's first plan finds it ready (README "What loads first"). The app's pool takes it
// as its worker 0 (src/ui/pool.rs) with what it said meanwhile, held here in order: a message
// that found no listener would be lost. Never fatal: without it the app starts its own.
try {
  const worker = new Worker(beside("worker_loader.js"), { type: "module", name: "model-0" });
  const held = [];
  const hold = (event) => held.push(event);
  worker.addEventListener("message", hold);
  worker.addEventListener("error", hold);
  globalThis.labFirstWorker = {
    worker,
    take() {
      delete globalThis.labFirstWorker;
      worker.removeEventListener("message", hold);
      worker.removeEventListener("error", hold);
      return held.splice(0);
    },
  };
} catch (error) {
  console.info(`Parallelism Lab: the model's first worker starts with the app (${error && error.message})`);
}
const wasm = await init({ module_or_path: await compiledOffThread(url("wasm")) });
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));

// The offline copy (README "Works offline") downloads the whole build once more, so it is asked
// for only once the first view's model work is done (the app's "lab:settled", src/ui/app.rs),
// or at the latest OFFLINE_COPY_LATEST_MS after the app started (a view that never settles, an
// error screen): before, it competed with the model worker's download and start, and on a slow
// network with every file the first view needs. sw.js sits beside index.html, so its scope is
// this sub-path. Never fatal: without it the lab works as before, only not offline. Browsers
// without service workers skip it; a sandboxed frame throws on reading navigator.serviceWorker.
const OFFLINE_COPY_LATEST_MS = 10000;
await new Promise((settled) => {
  if (document.documentElement.hasAttribute("data-settled")) settled();
  addEventListener("lab:settled", settled, { once: true });
  setTimeout(settled, OFFLINE_COPY_LATEST_MS);
});
const offlineCopyUnavailable = (error) =>
  console.info(`Parallelism Lab: no offline copy (${error && error.message})`);
try {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker
      .register(new URL("sw.js", document.baseURI).href)
      .catch(offlineCopyUnavailable);
  }
} catch (error) {
  offlineCopyUnavailable(error);
}

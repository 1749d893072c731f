// The model worker's loader (assets/boot.js starts the first worker, src/ui/pool.rs the others,
// as module workers beside the page, so a sub-path and an iframe work under the CSP's
// worker-src 'self'). It holds the page's messages until the worker's wasm has started and
// installed its own handler, then hands them over in the order they came: the page can send its
// first plan at once, not after the worker's Ready, which reaches a busy page's thread late (the
// page benchmark's trace of a phone load: the worker idle for 80 ms, ready, while the page
// mounted its views). Without the holding, a message that arrives while the module still awaits
// its wasm finds no handler and is lost.
const held = [];
const hold = (event) => held.push(event);
addEventListener("message", hold);
try {
  // The wasm is asked for beside its glue, not once the glue has arrived and run: one round
  // trip fewer before the worker can start (README "The model in Web Workers").
  const wasm = fetch(new URL("./worker_bg.wasm", import.meta.url));
  const { default: init } = await import("./worker.js");
  await init({ module_or_path: wasm });
} finally {
  removeEventListener("message", hold);
}
for (const event of held.splice(0)) {
  dispatchEvent(new MessageEvent("message", { data: event.data }));
}

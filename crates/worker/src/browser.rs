//! The worker's message loop (see the crate docs).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use parallelism_work::protocol::Reply;
use parallelism_work::serve::Server;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Blob, DedicatedWorkerGlobalScope, FileReaderSync, MessageChannel, MessageEvent, Performance,
};

/// Longest stretch of model work per task, in milliseconds: how long a plan the page has
/// replaced may still be worked on, and how often results reach the page at most.
pub const SLICE_MS: f64 = 10.0;

/// The heap the worker takes from the browser in one piece as it starts, in bytes. The
/// allocator grows the wasm memory by as much as each allocation lacks, and every
/// `memory.grow` costs the worker time: the default view's plan grew it 69 times, about
/// 64 KiB at a time, to 5.6 MiB (a trace of a desktop load: 84 of the 256 ms from the
/// worker's `Ready` to every point estimated were those grows). Taken at once, seven desktop
/// loads each: that span 230 -> 207 ms (medians; README "Benchmarks"). The default plan's
/// heap (4.3 MiB) fits in this, and so does the same view of a 128-die drive (6.4 MiB); a
/// view that needs more grows beyond it.
const HEAP_RESERVE_BYTES: usize = 8 << 20;

/// The worker's state: the server, and the channel its slices are scheduled through.
struct Worker {
    scope: DedicatedWorkerGlobalScope,
    performance: Performance,
    server: RefCell<Server>,
    /// Posting to this channel's second port runs a slice in a new task (a zero timeout would
    /// be clamped to 4 ms once nested).
    channel: MessageChannel,
    scheduled: Cell<bool>,
}

impl Worker {
    fn post(&self, reply: &Reply) {
        // Only fails if the page is gone, when nobody is left to tell.
        let _ = self.scope.post_message(&JsValue::from_str(&reply.encode()));
    }

    fn schedule(&self) {
        if self.scheduled.replace(true) {
            return;
        }
        if self.channel.port2().post_message(&JsValue::NULL).is_err() {
            self.scheduled.set(false);
        }
    }

    fn receive(&self, event: &MessageEvent) {
        let data = event.data();
        let reply = if let Some(text) = data.as_string() {
            self.server.borrow_mut().receive(&text)
        } else if let Some((text, file)) = with_file(&data) {
            // A replay of the reader's trace file: the page posts the file itself (a handle,
            // cheap to send), and it is read here, off the page's thread. A file that cannot
            // be read reaches the replay as none, which says so.
            match FileReaderSync::new().and_then(|r| r.read_as_text(&file)) {
                Ok(contents) => self.server.borrow_mut().receive_with_file(&text, contents),
                Err(_) => self.server.borrow_mut().receive(&text),
            }
        } else {
            Some(Reply::Refused {
                why: "a message that is neither text nor text with a file".to_string(),
            })
        };
        if let Some(reply) = reply {
            self.post(&reply);
        }
        self.schedule();
    }

    fn slice(&self) {
        self.scheduled.set(false);
        let start = self.performance.now();
        let mut server = self.server.borrow_mut();
        let replies = server.work(&mut || self.performance.now() - start >= SLICE_MS);
        let busy = server.busy();
        drop(server);
        for reply in &replies {
            self.post(reply);
        }
        if busy {
            self.schedule();
        }
    }
}

/// A message of text and a file, as the page posts a replay of the reader's trace file: a
/// two-item array.
fn with_file(data: &JsValue) -> Option<(String, Blob)> {
    let pair = data.dyn_ref::<js_sys::Array>()?;
    let text = pair.get(0).as_string()?;
    let file = pair.get(1).dyn_into::<Blob>().ok()?;
    Some((text, file))
}

/// Installs the panic report and the message loop, then tells the page it is ready.
pub fn start() {
    reserve_heap();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    report_panics(scope.clone());
    let (Some(performance), Ok(channel)) = (scope.performance(), MessageChannel::new()) else {
        panic!("this browser's workers have no performance clock or message channels");
    };
    let worker = Rc::new(Worker {
        scope,
        performance,
        server: RefCell::new(Server::new()),
        channel,
        scheduled: Cell::new(false),
    });
    let on_slice = {
        let worker = Rc::clone(&worker);
        Closure::<dyn Fn()>::new(move || worker.slice())
    };
    worker
        .channel
        .port1()
        .set_onmessage(Some(on_slice.as_ref().unchecked_ref()));
    let on_message = {
        let worker = Rc::clone(&worker);
        Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| worker.receive(&event))
    };
    worker
        .scope
        .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as the page: its handlers are never removed.
    on_slice.forget();
    on_message.forget();
    worker.post(&Reply::Ready);
}

/// Takes [`HEAP_RESERVE_BYTES`] from the browser in one grow of the wasm memory: the
/// allocation is freed at once, and the allocator keeps what it grew for its later allocations
/// (a wasm memory never shrinks).
fn reserve_heap() {
    // `black_box`: an allocation nothing reads could be optimised away.
    drop(std::hint::black_box(Vec::<u8>::with_capacity(
        HEAP_RESERVE_BYTES,
    )));
}

fn report_panics(scope: DedicatedWorkerGlobalScope) {
    std::panic::set_hook(Box::new(move |info| {
        let reply = Reply::Panicked {
            why: info.to_string(),
        };
        let _ = scope.post_message(&JsValue::from_str(&reply.encode()));
    }));
}

//! Tasks of their own: [`next_task`] runs a closure in a new task of the page's event loop,
//! after the tasks already waiting, without a timer.
//!
//! The page's start (its steps), its later parts and its charts' turns each go in a task of
//! their own, one after the other, so that input and frames come between them. A timer of no
//! delay set from a timer's callback five deep waits at least 4 ms (the HTML standard's
//! clamp), and these chains are dozens of tasks long: a desktop trace of the load had the
//! page's thread idle for 3 to 10 ms between the later parts' mounts. A message posted on a
//! `MessageChannel` is a task of its own with no such wait (the technique of the usual
//! JavaScript schedulers).
//!
//! What always holds: the closures run in the order they were asked for, one per task; should
//! the browser have no `MessageChannel`, each runs from a timer of no delay instead.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageChannel, MessagePort};

/// A closure waiting for its task.
type Waiting = Box<dyn FnOnce()>;

/// The page's channel: a message posted on `port` runs the first waiting closure.
struct Channel {
    port: MessagePort,
    waiting: Rc<RefCell<VecDeque<Waiting>>>,
    /// Held so the channel's handler lives as long as the page.
    _on_message: Closure<dyn FnMut()>,
}

thread_local! {
    static CHANNEL: Option<Channel> = open();
}

/// Opens the channel, or `None` where the browser cannot.
fn open() -> Option<Channel> {
    let channel = MessageChannel::new().ok()?;
    let waiting: Rc<RefCell<VecDeque<Waiting>>> = Rc::default();
    let on_message = {
        let waiting = waiting.clone();
        // Taken out before it runs: the closure may ask for tasks itself.
        Closure::<dyn FnMut()>::new(move || {
            let next = waiting.borrow_mut().pop_front();
            if let Some(run) = next {
                run();
            }
        })
    };
    channel
        .port1()
        .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    Some(Channel {
        port: channel.port2(),
        waiting,
        _on_message: on_message,
    })
}

/// Runs `run` in a task of its own, after the tasks already waiting.
pub fn next_task(run: impl FnOnce() + 'static) {
    let run: Waiting = Box::new(run);
    let unposted = CHANNEL.with(|channel| match channel {
        Some(channel) => {
            channel.waiting.borrow_mut().push_back(run);
            match channel.port.post_message(&JsValue::NULL) {
                Ok(()) => None,
                Err(_) => channel.waiting.borrow_mut().pop_back(),
            }
        }
        None => Some(run),
    });
    if let Some(run) = unposted {
        gloo_timers::callback::Timeout::new(0, run).forget();
    }
}

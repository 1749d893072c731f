//! An element's box, followed: [`follow_box`] keeps a signal of what a reading of the box
//! (its size, its width) gives, read again whenever the box is resized or the window is (zoom
//! and moves between screens change the pixel ratio without resizing the box).
//!
//! What always holds: the signal changes only when the reading does, and the observers stop
//! when the calling component unmounts.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::ResizeObserver;

/// A resize observer and the callback it calls (dropping the callback would break it).
type Observer = (ResizeObserver, Closure<dyn FnMut()>);

/// What `read` gives of `box_ref`'s element, kept current; `T::default()` until the box is
/// first laid out.
///
/// The first reading comes from the resize observer's first notice, which the browser gives
/// once it has laid the box out anyway: reading at mount instead forced a layout of the
/// half-built page per chart (the page benchmark's profile: 127 ms of a 376 ms start-up in
/// `clientWidth`).
pub fn follow_box<T>(box_ref: NodeRef<html::Div>, read: fn(&web_sys::Element) -> T) -> RwSignal<T>
where
    T: Default + PartialEq + Send + Sync + 'static,
{
    let reading = RwSignal::new(T::default());
    let measure = move || {
        let Some(div) = box_ref.get_untracked() else {
            return;
        };
        let next = read(&div);
        if reading.with_untracked(|now| *now != next) {
            reading.set(next);
        }
    };
    let observer: Rc<RefCell<Option<Observer>>> = Rc::default();
    {
        let observer = observer.clone();
        Effect::new(move |_| {
            let Some(div) = box_ref.get() else { return };
            if observer.borrow().is_some() {
                return;
            }
            let callback = Closure::<dyn FnMut()>::new(measure);
            if let Ok(ro) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
                ro.observe(&div);
                *observer.borrow_mut() = Some((ro, callback));
            }
        });
    }
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    let observer = send_wrapper::SendWrapper::new(observer);
    on_cleanup(move || {
        resize.remove();
        if let Some((ro, _)) = observer.borrow_mut().take() {
            ro.disconnect();
        }
    });
    reading
}

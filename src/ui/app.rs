//! Placeholder root component: one queue-depth slider, its readout and one chart.
//!
//! It exists to prove the build and test pipeline (Trunk, wasm-bindgen tests in Chromium,
//! the WebDriver end-to-end test) and will be replaced by the real lab. The ids `qd`,
//! `readout` and `chart-iops` are what the tests look for.

use leptos::html;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

/// Largest slider step: queue depth 2^8 = 256.
const MAX_STEP: u32 = 8;
/// Initial slider step: queue depth 2^4 = 16.
const INITIAL_STEP: u32 = 4;

/// Queue depth for a slider step (the slider moves in powers of two: 1, 2, 4, ... 256).
fn queue_depth(step: u32) -> u32 {
    1 << step.min(MAX_STEP)
}

/// Illustrative IOPS curve (thousands): rises with queue depth and saturates.
/// Not the model; only something for the placeholder chart to draw.
fn placeholder_kiops(qd: f64) -> f64 {
    const PEAK_KIOPS: f64 = 800.0;
    const HALF_QD: f64 = 24.0;
    PEAK_KIOPS * qd / (qd + HALF_QD)
}

/// The root component.
#[component]
pub fn App() -> impl IntoView {
    let (step, set_step) = signal(INITIAL_STEP);
    let qd = move || queue_depth(step.get());
    let canvas = NodeRef::<html::Canvas>::new();

    // Redraw whenever the slider moves (and once the canvas is mounted).
    Effect::new(move |_| {
        let qd = qd();
        if let Some(canvas) = canvas.get() {
            if let Err(err) = draw_iops_chart(&canvas, qd) {
                leptos::logging::error!("drawing the IOPS chart failed: {err}");
            }
        }
    });

    let on_input = move |ev| {
        if let Ok(value) = event_target_value(&ev).parse::<u32>() {
            set_step.set(value.min(MAX_STEP));
        }
    };

    view! {
        <main class="lab">
            <h1>"Parallelism Lab"</h1>
            <div class="control">
                <label for="qd">"Queue depth"</label>
                <input
                    id="qd"
                    type="range"
                    min="0"
                    max=MAX_STEP.to_string()
                    step="1"
                    prop:value=move || step.get().to_string()
                    aria-valuetext=move || format!("queue depth {}", qd())
                    on:input=on_input
                />
                <output id="readout" for="qd">{qd}</output>
            </div>
            <canvas
                id="chart-iops"
                node_ref=canvas
                width="640"
                height="320"
                role="img"
                aria-label="Placeholder chart: IOPS against queue depth"
            ></canvas>
        </main>
    }
}

/// Draws the placeholder curve and marks the selected queue depth.
fn draw_iops_chart(canvas: &HtmlCanvasElement, qd: u32) -> Result<(), Box<dyn std::error::Error>> {
    let backend =
        CanvasBackend::with_canvas_object(canvas.clone()).ok_or("canvas has no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE)?;

    let x_max = f64::from(MAX_STEP);
    let y_max = placeholder_kiops(f64::from(queue_depth(MAX_STEP))) * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)?;
    chart
        .configure_mesh()
        .x_desc("queue depth")
        .x_label_formatter(&|x| format!("{}", 2f64.powf(*x).round()))
        .y_desc("kIOPS")
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;

    let curve = (0..=80).map(|i| {
        let x = x_max * f64::from(i) / 80.0;
        (x, placeholder_kiops(2f64.powf(x)))
    });
    chart.draw_series(LineSeries::new(curve, BLUE.stroke_width(2)))?;

    let selected = (f64::from(qd).log2(), placeholder_kiops(f64::from(qd)));
    chart.draw_series(std::iter::once(Circle::new(selected, 6, RED.filled())))?;

    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_steps_are_powers_of_two_up_to_256() {
        assert_eq!(queue_depth(0), 1);
        assert_eq!(queue_depth(4), 16);
        assert_eq!(queue_depth(MAX_STEP), 256);
        assert_eq!(queue_depth(99), 256);
    }

    #[test]
    fn placeholder_curve_rises() {
        assert!(placeholder_kiops(2.0) > placeholder_kiops(1.0));
        assert!(placeholder_kiops(256.0) < 800.0);
    }
}

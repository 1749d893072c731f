//! The control panel: every input the reader has, each a native, labelled, keyboard-operable
//! element that writes the one [`LabState`] signal through its setters (which keep the state
//! valid whatever the input says).
//!
//! Components: [`DriveControls`] (preset, what to hold fixed, dies, capacity),
//! [`WorkloadControls`] (queue depth, pattern, read share, block size),
//! [`DriveStateControl`], [`ViewControls`] (p99.9, theme) and [`ResetButton`].

pub mod radio;
pub mod slider;

use leptos::prelude::*;

use crate::model::config::DriveState;
use crate::model::presets;

use super::embed::Control;
use super::format;
use super::state::{
    block_size_ladder, qd_ladder, read_share_ladder, Hold, LabState, Theme, ALL_READS_PCT,
};
use radio::{Choice, RadioGroup};
use slider::LadderSlider;

/// The preset's one-line summary without its source tags (`[REF2]`), which only mean
/// something in the source code.
pub fn plain_summary(summary: &str) -> String {
    let mut out = String::with_capacity(summary.len());
    let mut depth = 0usize;
    for c in summary.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    out.replace(" ,", ",")
        .replace(" ;", ";")
        .trim_end_matches([' ', ','])
        .to_string()
}

/// What a control the page's author locked (`lock=`) says under it.
pub const LOCKED_TEXT: &str = "Locked by the author of this page.";

/// Whether the author locked `control`, as a signal for the control's `disabled`.
pub fn locked(state: RwSignal<LabState>, control: Control) -> Signal<bool> {
    Signal::derive(move || state.with(|s| s.embedding.locks.locks(control)))
}

/// The visible "locked by the author" hint, shown while `locked`.
#[component]
pub fn LockHint(
    /// Whether the control is locked.
    #[prop(into)]
    locked: Signal<bool>,
) -> impl IntoView {
    view! {
        <Show when=move || locked.get()>
            <p class="hint locked-hint">{LOCKED_TEXT}</p>
        </Show>
    }
}

/// Preset, what stays fixed, die count and capacity.
#[component]
pub fn DriveControls(
    /// The lab's state (read and written).
    state: RwSignal<LabState>,
) -> impl IntoView {
    let hold_choices = Hold::ALL
        .iter()
        .map(|h| Choice {
            value: h.id(),
            label: h.label().to_string(),
        })
        .collect();
    let hold = Signal::derive(move || state.with(|s| s.drive.hold()));
    view! {
        <fieldset class="group">
            <legend>"Drive"</legend>
            <PresetSelect state=state />
            <RadioGroup
                name="hold"
                legend="Keep fixed while moving dies or capacity"
                choices=hold_choices
                selected=Signal::derive(move || hold.get().id())
                on_change=Callback::new(move |v: &'static str| {
                    if let Ok(h) = v.parse::<Hold>() {
                        state.update(|s| s.drive.set_hold(h));
                    }
                })
                locked=locked(state, Control::Hold)
            />
            <LadderSlider
                id="dies"
                label="Dies (flash chips the controller drives in parallel)"
                ladder=Signal::derive(move || state.with(|s: &LabState| s.drive.dies_ladder()))
                value=Signal::derive(move || state.with(|s: &LabState| s.drive.dies()))
                on_change=Callback::new(move |d| state.update(|s| s.drive.set_dies(d)))
                format=Callback::new(|d: u32| format!("{d}"))
                value_text=Callback::new(|d: u32| format!("{d} dies"))
                disabled=Signal::derive(move || hold.get() == Hold::Dies)
                locked=locked(state, Control::Dies)
            />
            <LadderSlider
                id="cap"
                label="Capacity"
                ladder=Signal::derive(move || state.with(|s: &LabState| s.drive.capacity_ladder()))
                value=Signal::derive(move || state.with(|s| s.drive.choice().raw_gbit()))
                on_change=Callback::new(move |raw| state.update(|s| s.drive.set_raw_gbit(raw)))
                format=Callback::new(move |raw| state.with(|s| format::gb(s.drive.gb_for_raw_gbit(raw))))
                value_text=Callback::new(move |raw| {
                    state.with(|s| format!("{} user capacity", format::gb(s.drive.gb_for_raw_gbit(raw))))
                })
                disabled=Signal::derive(move || hold.get() == Hold::Capacity)
                locked=locked(state, Control::Cap)
            />
            <p class="derived" id="density">{move || state.with(density_text)}</p>
        </fieldset>
    }
}

/// The controller preset, with its one-line summary.
#[component]
fn PresetSelect(
    /// The lab's state (read and written).
    state: RwSignal<LabState>,
) -> impl IntoView {
    let on_preset = move |ev| {
        let id = event_target_value(&ev);
        if let Some(p) = presets::find(&id) {
            state.update(|s| s.drive.set_preset(p));
        }
    };
    let options = presets::all()
        .iter()
        .map(|p| {
            let id = p.id;
            view! {
                <option value=id prop:selected=move || state.with(|s| s.drive.preset().id == id)>
                    {p.name}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="control">
            <label for="preset">"Controller preset"</label>
            <select
                id="preset"
                on:change=on_preset
                aria-describedby="preset-summary"
                prop:disabled=move || state.with(|s| s.embedding.locks.locks(Control::Preset))
            >
                {options}
            </select>
            <LockHint locked=locked(state, Control::Preset) />
            <p class="hint" id="preset-summary">
                {move || state.with(|s| plain_summary(s.drive.preset().summary))}
            </p>
        </div>
    }
}

/// The die density in words: the preset's own part, or a custom one.
fn density_text(s: &LabState) -> String {
    let part = s.drive.preset().nand.die_gbit;
    if s.drive.die_gbit() == part {
        format!("Die density: {part} Gbit, the preset's own part.")
    } else {
        format!(
            "Die density: {} Gbit (custom; the preset's part has {part} Gbit).",
            s.drive.die_gbit()
        )
    }
}

/// Queue depth, access pattern, read share and block size.
#[component]
pub fn WorkloadControls(
    /// The lab's state (read and written).
    state: RwSignal<LabState>,
) -> impl IntoView {
    let patterns = vec![
        Choice {
            value: "random",
            label: "random".into(),
        },
        Choice {
            value: "sequential",
            label: "sequential".into(),
        },
    ];
    view! {
        <fieldset class="group">
            <legend>"Workload"</legend>
            <LadderSlider
                id="qd"
                label="Queue depth (requests in flight)"
                ladder=Signal::derive(qd_ladder)
                value=Signal::derive(move || state.with(|s: &LabState| s.workload.qd()))
                on_change=Callback::new(move |q| state.update(|s| s.workload.set_qd(q)))
                format=Callback::new(|q: u32| q.to_string())
                value_text=Callback::new(|q: u32| format!("queue depth {q}"))
                hint="Arrow keys double or halve it; Shift + arrow takes a finer step."
                locked=locked(state, Control::Qd)
            />
            <RadioGroup
                name="pattern"
                legend="Addresses"
                choices=patterns
                selected=Signal::derive(move || {
                    if state.with(|s: &LabState| s.workload.random()) { "random" } else { "sequential" }
                })
                on_change=Callback::new(move |v: &'static str| {
                    state.update(|s| s.workload.set_random(v == "random"))
                })
                locked=locked(state, Control::Rw)
            />
            <LadderSlider
                id="mix"
                label="Read share"
                ladder=Signal::derive(read_share_ladder)
                value=Signal::derive(move || state.with(|s| u32::from(s.workload.read_pct())))
                on_change=Callback::new(move |p| state.update(|s| s.workload.set_read_pct(p)))
                format=Callback::new(|p: u32| format!("{p}% reads"))
                value_text=Callback::new(|p: u32| format!("{p} percent reads, {} percent writes", u32::from(ALL_READS_PCT).saturating_sub(p)))
                locked=locked(state, Control::Mix)
            />
            <LadderSlider
                id="bs"
                label="Block size"
                ladder=Signal::derive(block_size_ladder)
                value=Signal::derive(move || state.with(|s: &LabState| s.workload.bs_bytes()))
                on_change=Callback::new(move |b| state.update(|s| s.workload.set_bs_bytes(b)))
                format=Callback::new(format::block_size)
                value_text=Callback::new(|b: u32| format!("{} per request", format::block_size(b)))
                locked=locked(state, Control::Bs)
            />
            <p class="derived" id="fio-rw">
                {move || state.with(|s| format!("fio: rw={} bs={} iodepth={}{}",
                    s.workload.rw().fio_name(),
                    crate::model::config::format_block_size(s.workload.bs_bytes()),
                    s.workload.qd(),
                    if s.workload.rw().fixed_read_percent().is_none() { format!(" rwmixread={}", s.workload.read_pct()) } else { String::new() },
                ))}
            </p>
        </fieldset>
    }
}

/// What the drive went through before the run.
#[component]
pub fn DriveStateControl(
    /// The lab's state (read and written).
    state: RwSignal<LabState>,
) -> impl IntoView {
    let choices = DriveState::ALL
        .iter()
        .map(|d| Choice {
            value: d.id(),
            label: d.label().to_string(),
        })
        .collect();
    view! {
        <fieldset class="group">
            <legend>"Drive state"</legend>
            <RadioGroup
                name="state"
                legend="Before the run the drive is"
                choices=choices
                selected=Signal::derive(move || state.with(|s| s.workload.drive_state().id()))
                on_change=Callback::new(move |v: &'static str| {
                    if let Ok(d) = v.parse::<DriveState>() {
                        state.update(|s| s.workload.set_drive_state(d));
                    }
                })
                locked=locked(state, Control::State)
            />
        </fieldset>
    }
}

/// Display options: p99.9 and the colour scheme.
#[component]
pub fn ViewControls(
    /// The lab's state (read and written).
    state: RwSignal<LabState>,
) -> impl IntoView {
    let themes = Theme::ALL
        .iter()
        .map(|t| {
            let t = *t;
            view! {
                <option value=t.id() prop:selected=move || state.with(|s| s.display.theme == t)>
                    {t.label()}
                </option>
            }
        })
        .collect_view();
    view! {
        <fieldset class="group">
            <legend>"View"</legend>
            <label class="check" for="p999">
                <input
                    type="checkbox"
                    id="p999"
                    prop:checked=move || state.with(|s: &LabState| s.views.show_p999())
                    prop:disabled=move || state.with(|s| s.embedding.locks.locks(Control::P999))
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        state.update(|s| s.views.set_show_p999(on));
                    }
                />
                <span>"Show p99.9 latency"</span>
            </label>
            <LockHint locked=locked(state, Control::P999) />
            <div class="control">
                <label for="theme">"Colours"</label>
                <select
                    id="theme"
                    prop:disabled=move || state.with(|s| s.embedding.locks.locks(Control::Theme))
                    on:change=move |ev| {
                        if let Ok(t) = event_target_value(&ev).parse::<Theme>() {
                            state.update(|s| s.display.theme = t);
                        }
                    }
                >
                    {themes}
                </select>
                <LockHint locked=locked(state, Control::Theme) />
            </div>
        </fieldset>
    }
}

/// Restores the defaults (keeping the colour scheme).
#[component]
pub fn ResetButton(
    /// The lab's state (written).
    state: RwSignal<LabState>,
) -> impl IntoView {
    view! {
        <button
            type="button"
            id="reset"
            class="reset"
            on:click=move |_| state.update(LabState::reset)
        >
            "Reset to the defaults"
        </button>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_tags_are_removed_from_preset_summaries() {
        assert_eq!(
            plain_summary("8 channels, 32 CE; measured at 480 GB [REF1]"),
            "8 channels, 32 CE; measured at 480 GB"
        );
        assert_eq!(
            plain_summary("DRAM; the 2018 reference design [REF2, REF3]"),
            "DRAM; the 2018 reference design"
        );
        assert_eq!(plain_summary("a [b] c"), "a c");
    }
}

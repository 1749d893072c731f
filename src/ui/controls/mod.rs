//! The control panel: every input the reader has, each a native, labelled, keyboard-operable
//! element. A group takes the signal of the one part of the state it writes
//! ([`crate::ui::pure::state::Lab`]) and changes it through the part's setters, which keep it valid
//! whatever the input says; whether the author locked a control comes from the lab's context.
//!
//! Components: [`DriveControls`] (preset, what to hold fixed, dies, capacity),
//! [`WorkloadControls`] (queue depth, pattern, read share, block size),
//! [`DriveStateControl`], [`ViewControls`] (p99.9, theme) and [`ResetButton`].

pub mod jobs;
pub mod lock;
pub mod radio;
pub mod slider;
pub mod trace;

pub use lock::{locked, LockHint, LOCKED_TEXT};

use leptos::prelude::*;

use crate::model::config::DriveState;
use crate::model::presets;

use crate::model::workload::Spacing;
use crate::ui::pure::embed::Control;
use crate::ui::pure::format;
use crate::ui::pure::state::{
    block_size_ladder, custom, iodepth_ladder, rate_ladder, read_share_ladder, think_ladder,
    Display, DriveSetup, Hold, Lab, LabState, LoadKind, Theme, ViewSettings, WorkloadSetup,
    ALL_READS_PCT,
};
use jobs::JobsControls;
use radio::{Choice, RadioGroup};
use slider::LadderSlider;
use trace::TraceControls;

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

/// Preset, what stays fixed, die count and capacity.
#[component]
pub fn DriveControls(
    /// The drive part of the state (read and written).
    drive: RwSignal<DriveSetup>,
) -> impl IntoView {
    let hold_choices = Hold::ALL
        .iter()
        .map(|h| Choice {
            value: h.id(),
            label: h.label().to_string(),
        })
        .collect();
    let hold = Signal::derive(move || drive.with(DriveSetup::hold));
    view! {
        <fieldset class="group group-drive">
            <legend>"Drive"</legend>
            <PresetSelect drive=drive />
            <RadioGroup
                name="hold"
                legend="Keep fixed while moving dies or capacity"
                choices=hold_choices
                selected=Signal::derive(move || hold.get().id())
                on_change=Callback::new(move |v: &'static str| {
                    if let Ok(h) = v.parse::<Hold>() {
                        drive.update(|d| d.set_hold(h));
                    }
                })
                locked=locked(Control::Hold)
            />
            <LadderSlider
                id="dies"
                label="Dies (flash chips the controller drives in parallel)"
                ladder=Signal::derive(move || drive.with(DriveSetup::dies_ladder))
                value=Signal::derive(move || drive.with(DriveSetup::dies))
                on_change=Callback::new(move |n| drive.update(|d| d.set_dies(n)))
                format=Callback::new(|d: u32| format!("{d}"))
                value_text=Callback::new(|d: u32| format!("{d} dies"))
                disabled=Signal::derive(move || hold.get() == Hold::Dies)
                locked=locked(Control::Dies)
            />
            <LadderSlider
                id="cap"
                label="Capacity"
                ladder=Signal::derive(move || drive.with(DriveSetup::capacity_ladder))
                value=Signal::derive(move || drive.with(|d| d.choice().raw_gbit()))
                on_change=Callback::new(move |raw| drive.update(|d| d.set_raw_gbit(raw)))
                format=Callback::new(move |raw| drive.with(|d| format::gb(d.gb_for_raw_gbit(raw))))
                value_text=Callback::new(move |raw| {
                    drive.with(|d| format!("{} user capacity", format::gb(d.gb_for_raw_gbit(raw))))
                })
                disabled=Signal::derive(move || hold.get() == Hold::Capacity)
                locked=locked(Control::Cap)
            />
            <p class="derived" id="density">{move || drive.with(density_text)}</p>
            <PowerStateSelect drive=drive />
        </fieldset>
    }
}

/// The NVMe power state the drive is held to: each active state of the preset's table, with
/// its maximum; disabled (and saying why) when the preset publishes none.
#[component]
fn PowerStateSelect(
    /// The drive part of the state (read and written).
    drive: RwSignal<DriveSetup>,
) -> impl IntoView {
    let locked = locked(Control::Power);
    let options = move || {
        drive.with(|d| {
            let states = d.preset().controller.power.states;
            (0..d.active_power_states())
                .map(|n| {
                    let w = states[usize::from(n)].max_w;
                    let selected = d.power_state() == n;
                    view! {
                        <option value=n.to_string() prop:selected=selected>
                            {format!("PS{n}: up to {}", format::watts(w))}
                        </option>
                    }
                })
                .collect_view()
        })
    };
    let none = move || drive.with(|d| d.active_power_states() == 0);
    view! {
        <div class="control">
            <label for="power">"Power state (NVMe)"</label>
            <select
                id="power"
                aria-describedby="power-hint"
                prop:disabled=move || none() || locked.get()
                on:change=move |ev| {
                    if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                        drive.update(|d| d.set_power_state(n));
                    }
                }
            >
                {move || if none() {
                    view! { <option value="0">"PS0: uncapped"</option> }.into_any()
                } else {
                    options().into_any()
                }}
            </select>
            <LockHint locked=locked />
            <p class="hint" id="power-hint">
                {move || if none() {
                    "No power-state table is published for this controller: the model runs it uncapped."
                } else {
                    "A state's maximum is a budget: a lower state lets fewer dies work at once."
                }}
            </p>
        </div>
    }
}

/// The controller preset, with its one-line summary.
#[component]
fn PresetSelect(
    /// The drive part of the state (read and written).
    drive: RwSignal<DriveSetup>,
) -> impl IntoView {
    let on_preset = move |ev| {
        let id = event_target_value(&ev);
        if let Ok(p) = custom::lookup(&id) {
            drive.update(|d| d.set_preset(p));
        }
    };
    // A drive of the reader's own (fitted, or from a link) is offered while it is the drive.
    let own = move || {
        drive.with(|d| {
            let p = d.preset();
            custom::custom_of(p).map(
                |_| view! { <option value=p.id.clone() selected=true>{p.name.clone()}</option> },
            )
        })
    };
    let locked = locked(Control::Preset);
    let options = presets::all()
        .iter()
        .map(|p| {
            let id = p.id.clone();
            let value = id.to_string();
            view! {
                <option value=value prop:selected=move || drive.with(|d| d.preset().id == id)>
                    {p.name.clone()}
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
                prop:disabled=locked
            >
                {options}
                {own}
            </select>
            <LockHint locked=locked />
            <p class="hint" id="preset-summary">
                {move || drive.with(|d| plain_summary(&d.preset().summary))}
            </p>
        </div>
    }
}

/// The die density in words: the preset's own part, or a custom one.
fn density_text(d: &DriveSetup) -> String {
    let part = d.preset().nand.die_gbit;
    if d.die_gbit() == part {
        format!("Die density: {part} Gbit, the preset's own part.")
    } else {
        format!(
            "Die density: {} Gbit (custom; the preset's part has {part} Gbit).",
            d.die_gbit()
        )
    }
}

/// The workload as fio options, so a reader can run the same point on a drive.
fn fio_line(w: &WorkloadSetup) -> String {
    let mix = if w.rw().fixed_read_percent().is_none() {
        format!(" rwmixread={}", w.read_pct())
    } else {
        String::new()
    };
    let rate = match w.load() {
        LoadKind::Depth | LoadKind::Jobs | LoadKind::Trace => String::new(),
        LoadKind::Rate => format!(
            " rate_iops={} rate_process={}",
            w.rate_iops(),
            w.spacing().fio_name()
        ),
    };
    format!(
        "fio: rw={} bs={} iodepth={}{mix}{rate}",
        w.rw().fio_name(),
        crate::model::config::format_block_size(w.bs_bytes()),
        w.iodepth(),
    )
}

/// The workload choice: one job at a queue depth, or a rate; with a rate, its slider and how
/// arrivals are spaced.
#[component]
fn LoadControls(
    /// The workload part of the state (read and written).
    workload: RwSignal<WorkloadSetup>,
) -> impl IntoView {
    let kinds = LoadKind::ALL
        .iter()
        .map(|k| Choice {
            value: k.id(),
            label: k.label().to_string(),
        })
        .collect();
    let spacings: Vec<Choice> = Spacing::ALL
        .iter()
        .map(|s| Choice {
            value: s.fio_name(),
            label: spacing_label(*s).to_string(),
        })
        .collect();
    let rate = move || workload.with(|w| w.load() == LoadKind::Rate);
    let bs = move || workload.with(WorkloadSetup::bs_bytes);
    view! {
        <RadioGroup
            name="workload"
            legend="Requests arrive"
            choices=kinds
            selected=Signal::derive(move || workload.with(|w| w.load().id()))
            on_change=Callback::new(move |v: &'static str| {
                if let Ok(k) = v.parse::<LoadKind>() {
                    workload.update(|w| w.set_load(k));
                }
            })
            locked=locked(Control::Workload)
        />
        <Show when=rate>
            <LadderSlider
                id="rate"
                label="Offered load"
                ladder=Signal::derive(rate_ladder)
                value=Signal::derive(move || workload.with(WorkloadSetup::rate_iops))
                on_change=Callback::new(move |r| workload.update(|w| w.set_rate_iops(r)))
                format=Callback::new(format::rate_iops)
                value_text=Callback::new(move |r: u32| format!("{} offered", rate_text(r, bs())))
                hint="Requests a second, whatever the drive does. A log scale: arrow keys step 1, 2, 5, 10 ...; Shift + arrow takes a finer step."
                locked=locked(Control::Rate)
            />
            <p class="derived" id="rate-mb">
                {move || workload.with(|w| format!("= {} of {} requests", rate_mb_text(w.rate_iops(), w.bs_bytes()), format::block_size(w.bs_bytes())))}
            </p>
        </Show>
        <Show when=move || workload.with(|w| matches!(w.load(), LoadKind::Rate | LoadKind::Jobs))>
            <RadioGroup
                name="arrivals"
                legend="Arrivals"
                choices=spacings.clone()
                selected=Signal::derive(move || workload.with(|w| w.spacing().fio_name()))
                on_change=Callback::new(move |v: &'static str| {
                    if let Ok(s) = v.parse::<Spacing>() {
                        workload.update(|w| w.set_spacing(s));
                    }
                })
                locked=locked(Control::Arrivals)
            />
        </Show>
    }
}

/// How arrivals are spaced, as the choice says it.
fn spacing_label(spacing: Spacing) -> &'static str {
    match spacing {
        Spacing::Poisson => "at random (Poisson)",
        Spacing::Linear => "evenly (fio's default)",
    }
}

/// A rate as assistive technology reads it: IOPS, and MB/s at the block size.
fn rate_text(iops: u32, bs_bytes: u32) -> String {
    format!(
        "{} ({})",
        format::rate_iops(iops),
        rate_mb_text(iops, bs_bytes)
    )
}

/// A rate in MB/s at the block size.
fn rate_mb_text(iops: u32, bs_bytes: u32) -> String {
    format::mb_s(f64::from(iops) * f64::from(bs_bytes) / crate::model::config::BYTES_PER_MB)
}

/// The queue depth: requests kept in flight (a closed loop), or, under a rate, the most the
/// host lets reach the drive at once (fio's `iodepth` beside `rate_iops`).
#[component]
fn DepthControl(workload: RwSignal<WorkloadSetup>) -> impl IntoView {
    view! {
        <Show
            when=move || workload.with(|w| w.load() == LoadKind::Depth)
            fallback=move || {
                view! {
                    <LadderSlider
                        id="qd"
                        label="Most requests at the drive at once (the rest wait in the host)"
                        ladder=Signal::derive(iodepth_ladder)
                        value=Signal::derive(move || workload.with(WorkloadSetup::iodepth))
                        on_change=Callback::new(move |q| workload.update(|w| w.set_iodepth(q)))
                        format=Callback::new(|q: u32| q.to_string())
                        value_text=Callback::new(|q: u32| format!("at most {q} at the drive"))
                        hint="fio's iodepth beside rate_iops. Arrow keys double or halve it."
                        locked=locked(Control::Iodepth)
                    />
                }
            }
        >
            <LadderSlider
                id="qd"
                label="Queue depth (requests in flight)"
                ladder=Signal::derive(iodepth_ladder)
                value=Signal::derive(move || workload.with(WorkloadSetup::iodepth))
                on_change=Callback::new(move |q| workload.update(|w| w.set_iodepth(q)))
                format=Callback::new(|q: u32| q.to_string())
                value_text=Callback::new(|q: u32| format!("queue depth {q}"))
                hint="Arrow keys double or halve it; Shift + arrow takes a finer step."
                locked=locked(Control::Iodepth)
            />
        </Show>
    }
}

/// Queue depth, access pattern, read share and block size.
#[component]
pub fn WorkloadControls(
    /// The workload part of the state (read and written).
    workload: RwSignal<WorkloadSetup>,
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
        <fieldset class="group group-workload">
            <legend>"Workload"</legend>
            <LoadControls workload=workload />
            <Show when=move || workload.with(|w| w.load() == LoadKind::Jobs)>
                <JobsControls />
            </Show>
            <Show when=move || workload.with(|w| w.load() == LoadKind::Trace)>
                <TraceControls />
            </Show>
            <Show when=move || workload.with(|w| matches!(w.load(), LoadKind::Depth | LoadKind::Rate))>
            <DepthControl workload=workload />
            <RadioGroup
                name="pattern"
                legend="Addresses"
                choices=patterns.clone()
                selected=Signal::derive(move || {
                    if workload.with(WorkloadSetup::random) { "random" } else { "sequential" }
                })
                on_change=Callback::new(move |v: &'static str| {
                    workload.update(|w| w.set_random(v == "random"))
                })
                locked=locked(Control::Rw)
            />
            <LadderSlider
                id="mix"
                label="Read share"
                ladder=Signal::derive(read_share_ladder)
                value=Signal::derive(move || workload.with(|w| u32::from(w.read_pct())))
                on_change=Callback::new(move |p| workload.update(|w| w.set_read_pct(p)))
                format=Callback::new(|p: u32| format!("{p}% reads"))
                value_text=Callback::new(|p: u32| format!("{p} percent reads, {} percent writes", u32::from(ALL_READS_PCT).saturating_sub(p)))
                locked=locked(Control::Mix)
            />
            <LadderSlider
                id="bs"
                label="Block size"
                ladder=Signal::derive(block_size_ladder)
                value=Signal::derive(move || workload.with(WorkloadSetup::bs_bytes))
                on_change=Callback::new(move |b| workload.update(|w| w.set_bs_bytes(b)))
                format=Callback::new(format::block_size)
                value_text=Callback::new(|b: u32| format!("{} per request", format::block_size(b)))
                locked=locked(Control::Bs)
            />
            <p class="derived" id="fio-rw">
                {move || workload.with(fio_line)}
            </p>
            </Show>
        </fieldset>
    }
}

/// What the drive went through before the run.
#[component]
pub fn DriveStateControl(
    /// The workload part of the state, which holds the drive state (read and written).
    workload: RwSignal<WorkloadSetup>,
) -> impl IntoView {
    let choices = DriveState::ALL
        .iter()
        .map(|d| Choice {
            value: d.id(),
            label: d.label().to_string(),
        })
        .collect();
    view! {
        <fieldset class="group group-state">
            <legend>"Drive state"</legend>
            <RadioGroup
                name="state"
                legend="Before the run the drive is"
                choices=choices
                selected=Signal::derive(move || workload.with(|w| w.drive_state().id()))
                on_change=Callback::new(move |v: &'static str| {
                    if let Ok(d) = v.parse::<DriveState>() {
                        workload.update(|w| w.set_drive_state(d));
                    }
                })
                locked=locked(Control::State)
            />
        </fieldset>
    }
}

/// The host's idle time before a request, and whether the drive may enter idle power states
/// on its own (APST): the readout says what the next request pays for it.
#[component]
pub fn IdleControls(
    /// The per-view settings (the idle time and APST, read and written).
    views: RwSignal<ViewSettings>,
) -> impl IntoView {
    view! {
        <fieldset class="group group-idle">
            <legend>"Idle between requests"</legend>
            <LadderSlider
                id="think"
                label="Host idle time before the next request"
                ladder=Signal::derive(think_ladder)
                value=Signal::derive(move || views.with(ViewSettings::think_us))
                on_change=Callback::new(move |us| views.update(|v| v.set_think_us(us)))
                format=Callback::new(|us: u32| format::latency_us(f64::from(us)))
                value_text=Callback::new(|us: u32| format!("{} idle", format::latency_us(f64::from(us))))
                locked=locked(Control::Think)
            />
            <CheckBox
                id="apst"
                label="Autonomous power-state transitions (APST)"
                checked=Signal::derive(move || views.with(ViewSettings::apst))
                on_change=Callback::new(move |on| views.update(|v| v.set_apst(on)))
                locked=locked(Control::Apst)
            />
        </fieldset>
    }
}

/// A labelled checkbox with the author's lock and its hint.
#[component]
fn CheckBox(
    id: &'static str,
    label: &'static str,
    #[prop(into)] checked: Signal<bool>,
    on_change: Callback<bool>,
    #[prop(into)] locked: Signal<bool>,
) -> impl IntoView {
    view! {
        <label class="check" for=id>
            <input
                type="checkbox"
                id=id
                prop:checked=move || checked.get()
                prop:disabled=move || locked.get()
                on:change=move |ev| on_change.run(event_target_checked(&ev))
            />
            <span>{label}</span>
        </label>
        <LockHint locked=locked />
    }
}

/// Display options: p99.9 and the colour scheme.
#[component]
pub fn ViewControls(
    /// The per-view settings (p99.9, read and written).
    views: RwSignal<ViewSettings>,
    /// The display part (the colour scheme, read and written).
    display: RwSignal<Display>,
) -> impl IntoView {
    let theme_locked = locked(Control::Theme);
    let themes = Theme::ALL
        .iter()
        .map(|t| {
            let t = *t;
            view! {
                <option value=t.id() prop:selected=move || display.with(|d| d.theme == t)>
                    {t.label()}
                </option>
            }
        })
        .collect_view();
    view! {
        <fieldset class="group group-display">
            <legend>"View"</legend>
            <CheckBox
                id="p999"
                label="Show p99.9 latency"
                checked=Signal::derive(move || views.with(ViewSettings::show_p999))
                on_change=Callback::new(move |on| views.update(|v| v.set_show_p999(on)))
                locked=locked(Control::P999)
            />
            <div class="control">
                <label for="theme">"Colours"</label>
                <select
                    id="theme"
                    prop:disabled=theme_locked
                    on:change=move |ev| {
                        if let Ok(t) = event_target_value(&ev).parse::<Theme>() {
                            display.update(|d| d.theme = t);
                        }
                    }
                >
                    {themes}
                </select>
                <LockHint locked=theme_locked />
            </div>
        </fieldset>
    }
}

/// Restores the defaults (keeping the colour scheme).
#[component]
pub fn ResetButton() -> impl IntoView {
    let lab = Lab::expect();
    view! {
        <button
            type="button"
            id="reset"
            class="reset"
            on:click=move |_| lab.update(LabState::reset)
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

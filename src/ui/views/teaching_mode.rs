//! Teaching mode in the browser: [`TeachingMode`] shows the drive the controls set
//! at work (host queue, link, controller, channels, dies and planes, drawn as SVG to the
//! current die count), slowed down so microseconds take seconds, with Play, Pause, Step (one
//! engine event), Reset (also Alt+R) and a speed control; beside it the bottleneck
//! explainer. The guided tours sit above it, in [`super::tours`], because one of them
//! leads to the drive over time.
//!
//! This module owns the animation: one `requestAnimationFrame` loop per mounted view, which
//! stops when the view unmounts and only plays (moves the clock). The model behind it (the
//! point's run made ready, the player, the explainer's run) runs in a worker of the page's pool
//! ([`parallelism_work::teach`]): each frame asks the worker to move the clock on by the wall
//! time played, and draws the snapshot it answers with. The explainer's sentence lives in
//! [`crate::ui::pure::teaching`] and the geometry in [`Layout`].
//!
//! What always holds:
//! - at most one advance is on its way to the worker: the wall time played meanwhile is owed
//!   and sent with the next one, so the simulated clock keeps pace with the speed set however
//!   slow the answers, and the worker never queues frames the page has not drawn;
//! - work per frame is bounded (an event budget per advance), and none of it runs on the
//!   page's thread;
//! - with `prefers-reduced-motion: reduce` nothing moves by itself: Play is disabled and only
//!   Step advances time;
//! - `#activity` carries `data-sim-ns` (the simulated clock) and `data-steps` (engine events
//!   processed since the start): they change only through Play, Step and Reset;
//! - the screen-reader summary is a polite live region updated on Step, Pause and Reset and at
//!   most every [`SPOKEN_EVERY_MS`] while playing, never once per frame;
//! - die states are told apart by a letter as well as by colour, and every colour is a CSS
//!   custom property (the page's CSP allows no inline style).

use std::cell::Cell;
use std::rc::Rc;

use leptos::ev;
use leptos::prelude::*;

use crate::ui::pure::guide::GuidePage;
use crate::ui::views::embed_frame::InSight;
use crate::ui::views::guide_link::GuideLink;
use crate::ui::views::journey::FollowOne;

use parallelism_work::teach::{Frame, TeachCommand, TeachNews, MAX_EVENTS_PER_ADVANCE};

use crate::model::activity::{Activity, DieActivity, DieState};
use crate::model::time::SimTime;
use crate::ui::browser::pool::Pool;
use crate::ui::browser::resize::follow_box;
use crate::ui::controls::locked;
use crate::ui::controls::slider::LadderSlider;
use crate::ui::pure::compute::{self, RunKey};
use crate::ui::pure::embed::Control;
use crate::ui::pure::format;
use crate::ui::pure::journey::{Highlight, Journey};
use crate::ui::pure::state::{speed_ladder, Lab, ViewSettings, DEFAULT_SPEED_US_PER_S};
use crate::ui::pure::teaching::{
    bar_percent, explain, sim_span, speed_text, summary, ExplainContext, Explanation, PowerTrace,
};

/// A frame gap longer than this (a background tab) counts as this long, so time never jumps.
pub const MAX_FRAME_GAP_MS: f64 = 100.0;
/// Shortest interval between two spoken summaries while playing.
pub const SPOKEN_EVERY_MS: f64 = 5_000.0;
/// The media query that asks for no automatic animation.
const REDUCED_MOTION_QUERY: &str = "(prefers-reduced-motion: reduce)";
const NANOS_PER_US: f64 = 1_000.0;

// Geometry of the drive picture, in SVG user units (the picture scales to its box).
/// The widest the picture gets: a lane of [`MAX_PER_ROW`] dies fills it.
pub const VIEW_W: f64 = 1000.0;
/// Where the die cells of a lane start (the channel's label and bus sit left of it).
pub const LANE_X: f64 = 110.0;
/// Space under each lane.
pub const LANE_GAP: f64 = 10.0;
/// Space between two die cells.
pub const CELL_GAP: f64 = 4.0;
/// Largest and smallest die cell (a 256-die drive still gets cells a letter fits in).
pub const MAX_CELL: f64 = 72.0;
pub const MIN_CELL: f64 = 20.0;
/// The fewest CSS pixels the picture gives one of its units: its 20-unit text (`.drive-picture`
/// in `style/main.css`) at 14 px. The picture is laid out to fit its box at that size: a
/// narrow box (a phone) gets the front end stacked and the lanes in more rows.
pub const MIN_PX_PER_UNIT: f64 = 0.7;
/// The most CSS pixels a narrow picture gives one of its units, so a small drive's picture on a
/// tablet-wide box does not blow its text up (a wide box gives less: its width over
/// [`VIEW_W`]).
pub const MAX_PX_PER_UNIT: f64 = 1.0;
/// The room a box has is counted in steps of this many units, so the picture is laid out again
/// only when a resize makes a difference of a step.
const ROOM_STEP: f64 = 50.0;
/// Most dies in one row of a lane; more wrap into further rows.
pub const MAX_PER_ROW: u32 = 32;
/// Height of a plane marker inside a die cell, as a share of the cell.
const PLANE_MARK_SHARE: f64 = 0.14;
const HALF: f64 = 0.5;
/// Host, link and controller boxes: x positions (in a row) and widths.
const HOST_X: f64 = 10.0;
const HOST_W: f64 = 250.0;
const LINK_X: f64 = 280.0;
const LINK_W: f64 = 200.0;
const CTRL_X: f64 = 500.0;
const CTRL_W: f64 = 280.0;
const BOX_Y: f64 = 10.0;
const BOX_H: f64 = 92.0;
/// Space between the front end's boxes when they are stacked.
const STACK_GAP: f64 = 10.0;
/// Space between the front end and the first lane.
const FRONT_GAP: f64 = 18.0;
const LINE_H: f64 = 26.0;
const TEXT_PAD: f64 = 12.0;
const ARROW_H: f64 = 30.0;
/// How wide the host, link and controller row is: the controller's right edge, with the
/// host's margin on the left repeated on the right.
const FRONT_END_W: f64 = CTRL_X + CTRL_W + HOST_X;
/// How wide the front end is stacked: its widest box with the host's margin on both sides.
const STACKED_W: f64 = HOST_X + CTRL_W + HOST_X;
const CHANNEL_BAR_X: f64 = 10.0;
const CHANNEL_BAR_W: f64 = 88.0;

/// What of a drive the picture draws: its dies, its channels and each die's planes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriveParts {
    pub dies: u32,
    pub channels: u32,
    pub planes: u32,
}

/// Where everything of a drive sits in the picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub dies: u32,
    pub channels: u32,
    pub planes: u32,
    /// Die cells per row of a lane.
    pub per_row: u32,
    /// Rows per lane.
    pub rows: u32,
    /// Side of a die cell.
    pub cell: f64,
    /// The box holds fewer than [`VIEW_W`] units at [`MIN_PX_PER_UNIT`]: the picture fills it.
    pub narrow: bool,
    /// Host, link and controller one above the other (a box too narrow for them in a row).
    pub stacked: bool,
    /// Where the first lane starts: under the front end.
    pub top: f64,
    /// Total width of the picture: its widest row, the front end's or a lane's, so a small
    /// drive's picture has no empty margin to scroll past on a phone.
    pub width: f64,
    /// Total height of the picture.
    pub height: f64,
}

impl Layout {
    /// The layout of a drive in a box `box_px` CSS pixels wide: as wide as [`VIEW_W`] where
    /// the box gives each unit [`MIN_PX_PER_UNIT`], narrower (lanes in more rows, then the
    /// front end stacked) where it does not, down to the stacked front end's width.
    pub fn new(dies: u32, channels: u32, planes: u32, box_px: f64) -> Layout {
        let dies = dies.max(1);
        let channels = channels.clamp(1, dies);
        let room = Self::room(box_px);
        let per_channel = dies.div_ceil(channels);
        let fit = ((room - LANE_X - CELL_GAP) / (MIN_CELL + CELL_GAP)).floor() as u32;
        let rows = per_channel.div_ceil(per_channel.min(MAX_PER_ROW).min(fit.max(1)));
        let per_row = per_channel.div_ceil(rows);
        let cell =
            ((room - LANE_X - CELL_GAP) / f64::from(per_row) - CELL_GAP).clamp(MIN_CELL, MAX_CELL);
        let stacked = room < FRONT_END_W;
        let top = if stacked {
            BOX_Y + 3.0 * BOX_H + 2.0 * STACK_GAP + FRONT_GAP
        } else {
            BOX_Y + BOX_H + FRONT_GAP
        };
        let height = top + f64::from(channels) * (Self::lane_h_for(rows, cell) + LANE_GAP);
        let lane_w = LANE_X + f64::from(per_row) * (cell + CELL_GAP);
        Layout {
            dies,
            channels,
            planes: planes.max(1),
            per_row,
            rows,
            cell,
            narrow: room < VIEW_W,
            stacked,
            top,
            width: lane_w.max(if stacked { STACKED_W } else { FRONT_END_W }),
            height,
        }
    }

    /// The units a box `box_px` wide holds at [`MIN_PX_PER_UNIT`], in whole [`ROOM_STEP`]s,
    /// from the stacked front end's width to [`VIEW_W`] (a box not measured, or of no width,
    /// counts as the widest).
    fn room(box_px: f64) -> f64 {
        let units = box_px / MIN_PX_PER_UNIT;
        if !units.is_finite() || units <= 0.0 {
            return VIEW_W;
        }
        ((units / ROOM_STEP).floor() * ROOM_STEP).clamp(STACKED_W, VIEW_W)
    }

    fn lane_h_for(rows: u32, cell: f64) -> f64 {
        f64::from(rows) * (cell + CELL_GAP) - CELL_GAP
    }

    /// Height of one channel's lane.
    pub fn lane_h(&self) -> f64 {
        Self::lane_h_for(self.rows, self.cell)
    }

    /// Top of channel `ch`'s lane.
    pub fn lane_y(&self, ch: u32) -> f64 {
        self.top + f64::from(ch) * (self.lane_h() + LANE_GAP)
    }

    /// Top-left corner of die `i` (dies sit on channel `i % channels`, as in the model).
    pub fn die_xy(&self, i: u32) -> (f64, f64) {
        let ch = i % self.channels;
        let k = i / self.channels;
        let (row, col) = (k / self.per_row, k % self.per_row);
        (
            LANE_X + f64::from(col) * (self.cell + CELL_GAP),
            self.lane_y(ch) + f64::from(row) * (self.cell + CELL_GAP),
        )
    }

    /// Top-left corners of the host's box, the link's and the controller's: in a row, or one
    /// under the other.
    fn front_end(&self) -> [(f64, f64); 3] {
        if self.stacked {
            let step = BOX_H + STACK_GAP;
            [
                (HOST_X, BOX_Y),
                (HOST_X, BOX_Y + step),
                (HOST_X, BOX_Y + 2.0 * step),
            ]
        } else {
            [(HOST_X, BOX_Y), (LINK_X, BOX_Y), (CTRL_X, BOX_Y)]
        }
    }

    pub fn view_box(&self) -> String {
        format!("0 0 {} {}", self.width.ceil(), self.height.ceil())
    }

    /// The picture's CSS width. In a wide box, a share of it: every drive's unit as large as
    /// the widest picture's when that fills the box. In a narrow one, the whole box, at most
    /// [`MAX_PX_PER_UNIT`] a unit.
    pub fn css_width(&self) -> String {
        if self.narrow {
            format!("min(100%, {:.0}px)", self.width.ceil() * MAX_PX_PER_UNIT)
        } else {
            format!("{:.2}%", self.width.ceil() / VIEW_W * 100.0)
        }
    }

    /// The picture's least CSS width: [`MIN_PX_PER_UNIT`] for each of its units.
    pub fn css_min_width(&self) -> String {
        format!("{:.0}px", self.width.ceil() * MIN_PX_PER_UNIT)
    }
}

/// What the page shows of the animation; cheap to copy into closures.
#[derive(Clone, Copy)]
struct Shown {
    activity: RwSignal<Option<Activity>>,
    clock_ns: RwSignal<u64>,
    steps: RwSignal<u64>,
    playing: RwSignal<bool>,
    ready: RwSignal<bool>,
    status: RwSignal<String>,
    explanation: RwSignal<Option<Explanation>>,
    spoken: RwSignal<String>,
    power: RwSignal<PowerTrace>,
    /// The request followed, once the reader asked for one.
    journey: RwSignal<Option<Journey>>,
}

impl Shown {
    fn new() -> Shown {
        Shown {
            activity: RwSignal::new(None),
            clock_ns: RwSignal::new(0),
            steps: RwSignal::new(0),
            playing: RwSignal::new(false),
            ready: RwSignal::new(false),
            status: RwSignal::new(String::new()),
            explanation: RwSignal::new(None),
            spoken: RwSignal::new(String::new()),
            power: RwSignal::new(PowerTrace::default()),
            journey: RwSignal::new(None),
        }
    }

    fn publish(&self, f: Frame, speak: bool) {
        self.follow(&f);
        if speak {
            self.spoken.set(summary(&f.activity, f.clock));
        }
        self.power.update(|t| t.push(f.power_w));
        self.activity.set(Some(f.activity));
        self.clock_ns.set(f.clock.0);
        self.steps.set(f.steps);
    }

    /// Takes in where the request followed is (a journey changes only when it moved on).
    fn follow(&self, f: &Frame) {
        let changed = self.journey.with_untracked(|j| {
            j.as_ref()
                .is_some_and(|j| f.followed.is_some() && j.latest != f.followed)
        });
        if changed {
            self.journey
                .update(|j| j.iter_mut().for_each(|j| j.hear(f.followed)));
        }
    }

    /// What the drive does now, in one sentence (for Pause).
    fn speak_now(&self) {
        if let Some(a) = self.activity.get_untracked() {
            self.spoken
                .set(summary(&a, SimTime(self.clock_ns.get_untracked())));
        }
    }
}

/// The animation's page-side state (one per mounted view): the clock's bookkeeping and the
/// answers awaited from the worker.
struct Core {
    pool: Pool,
    /// What the explainer needs besides the worker's figures, for the point playing.
    ctx: Option<ExplainContext>,
    last_frame_ms: Option<f64>,
    /// Wall time played that no advance has carried to the worker yet.
    owed_ms: f64,
    /// Commands sent whose frame has not come back.
    awaited: u32,
    /// Frames still to come that answer commands sent before the last Follow: they tell of
    /// the request followed before it, so the journey does not take them in.
    before_follow: u32,
    last_spoken_ms: f64,
}

impl Core {
    fn new(pool: Pool) -> Core {
        Core {
            pool,
            ctx: None,
            last_frame_ms: None,
            owed_ms: 0.0,
            awaited: 0,
            before_follow: 0,
            last_spoken_ms: 0.0,
        }
    }

    /// Forgets the old point while the new one is prepared.
    fn restart(&mut self, ctx: ExplainContext, shown: Shown) {
        *self = Core {
            ctx: Some(ctx),
            ..Core::new(self.pool)
        };
        shown.playing.set(false);
        shown.ready.set(false);
        shown.activity.set(None);
        shown.explanation.set(None);
        shown.clock_ns.set(0);
        shown.steps.set(0);
        shown.journey.set(None);
        shown.status.set("Preparing the drive…".into());
    }

    /// Sends `command` for the point playing; its frame is awaited.
    fn send(&mut self, command: TeachCommand) {
        self.awaited += 1;
        self.pool.teach(command);
    }

    fn reset(&mut self, shown: Shown) {
        shown.playing.set(false);
        if shown.ready.get_untracked() {
            let budget = shown.power.with_untracked(PowerTrace::budget_w);
            shown.power.set(PowerTrace::new(budget));
            self.owed_ms = 0.0;
            // The worker's player starts again, following nothing.
            shown.journey.set(None);
            self.send(TeachCommand::Reset);
        }
    }

    fn step(&mut self, shown: Shown) {
        shown.playing.set(false);
        if shown.ready.get_untracked() {
            self.send(TeachCommand::Step);
        }
    }

    /// Follows the host's next read (or write, `write`).
    fn follow(&mut self, write: bool, shown: Shown) {
        if shown.ready.get_untracked() {
            self.before_follow = self.awaited;
            shown.journey.set(Some(Journey::waiting(write)));
            self.send(TeachCommand::Follow { write });
        }
    }

    /// One animation frame at `now_ms`: while playing, the frame's wall time is owed to the
    /// clock, and sent once the last advance has been answered.
    fn frame(&mut self, now_ms: f64, speed_us_per_s: u32, shown: Shown) {
        let gap = self
            .last_frame_ms
            .map_or(0.0, |t| (now_ms - t).clamp(0.0, MAX_FRAME_GAP_MS));
        self.last_frame_ms = Some(now_ms);
        if !shown.playing.get_untracked() {
            return;
        }
        self.owed_ms = (self.owed_ms + gap).min(MAX_FRAME_GAP_MS);
        if self.awaited == 0 && self.owed_ms > 0.0 {
            let by = sim_span(self.owed_ms, speed_us_per_s);
            self.owed_ms = 0.0;
            self.send(TeachCommand::Advance {
                by,
                max_events: MAX_EVENTS_PER_ADVANCE,
            });
        }
    }

    /// Takes in what the worker says of the point playing.
    fn hear(&mut self, news: TeachNews, shown: Shown) {
        match news {
            TeachNews::Ready(f) => {
                shown.power.set(PowerTrace::new(f.budget_w));
                shown.publish(f, true);
                shown.ready.set(true);
                shown.status.set(String::new());
            }
            TeachNews::Frame(mut f) => {
                self.awaited = self.awaited.saturating_sub(1);
                if self.before_follow > 0 {
                    self.before_follow -= 1;
                    f.followed = None;
                }
                let now = performance_now();
                let speak =
                    !shown.playing.get_untracked() || now - self.last_spoken_ms >= SPOKEN_EVERY_MS;
                if speak {
                    self.last_spoken_ms = now;
                }
                if f.events > 0 || f.steps == 0 || speak {
                    shown.publish(f, speak);
                } else {
                    shown.follow(&f);
                    shown.clock_ns.set(f.clock.0);
                }
            }
            TeachNews::Explained(figures) => {
                if let Some(ctx) = self.ctx {
                    shown.explanation.set(Some(explain(&figures, ctx)));
                }
            }
            TeachNews::Failed(why) => shown
                .status
                .set(format!("The model cannot run this point: {why}.")),
        }
    }
}

fn performance_now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

fn prefers_reduced_motion() -> bool {
    window()
        .match_media(REDUCED_MOTION_QUERY)
        .ok()
        .flatten()
        .is_some_and(|q| q.matches())
}

/// Starts the player on the point `spec` names, and again whenever it changes; the model's
/// work waits until the lab is first in sight (an article's frame below the fold).
fn start_player(
    spec: Memo<(RunKey, ExplainContext)>,
    core: StoredValue<Core, LocalStorage>,
    shown: Shown,
    pool: Pool,
) {
    let sight = InSight::expect();
    Effect::new(move |_| {
        if !sight.ever.get() {
            return;
        }
        let (key, ctx) = spec.get();
        core.update_value(|c| c.restart(ctx, shown));
        let hear = move |news| {
            let _ = core.try_update_value(|c| c.hear(news, shown));
        };
        pool.teach_start(key, Rc::new(hear));
    });
}

/// Plays the animation, unless the system asks for reduced motion or the point is not ready.
fn play(core: StoredValue<Core, LocalStorage>, shown: Shown, reduced: bool) {
    if !reduced && shown.ready.get_untracked() {
        core.update_value(|c| c.last_frame_ms = None);
        shown.playing.set(true);
    }
}

/// Pauses the animation, and says where it stands.
fn pause(shown: Shown) {
    if shown.playing.get_untracked() {
        shown.playing.set(false);
        shown.speak_now();
    }
}

/// What the page that frames the lab asked of teaching mode's playback (`play`, `pause`),
/// until the view takes it; provided by the page, taken by [`TeachingMode`].
#[derive(Clone, Copy)]
pub struct Playback {
    asked: RwSignal<Option<bool>>,
}

impl Playback {
    /// A playback with nothing asked, shared with the views below.
    pub fn provide() -> Playback {
        let playback = Playback {
            asked: RwSignal::new(None),
        };
        provide_context(playback);
        playback
    }

    /// Asks teaching mode to play (`true`) or pause; a play waits until its point is ready.
    pub fn ask(self, play: bool) {
        self.asked.set(Some(play));
    }

    /// Whether the reader's system asks for reduced motion (then nothing plays).
    pub fn reduced_motion() -> bool {
        prefers_reduced_motion()
    }
}

/// Follows the host's playback requests, and pauses while the lab is out of sight.
fn follow_playback(core: StoredValue<Core, LocalStorage>, shown: Shown, reduced: bool) {
    let sight = InSight::expect();
    Effect::new(move |_| {
        if !sight.now.get() {
            pause(shown);
        }
    });
    let Some(playback) = use_context::<Playback>() else {
        return;
    };
    Effect::new(move |_| match playback.asked.get() {
        Some(true) if shown.ready.get() => {
            play(core, shown, reduced);
            playback.asked.set(None);
        }
        Some(false) => {
            pause(shown);
            playback.asked.set(None);
        }
        _ => {}
    });
}

/// Calls `frame` once per animation frame until `alive` turns false.
fn animate(alive: Rc<Cell<bool>>, frame: Rc<dyn Fn(f64)>) {
    request_animation_frame(move || {
        if !alive.get() {
            return;
        }
        frame(performance_now());
        animate(alive, frame);
    });
}

/// Teaching mode: the drive at work and the bottleneck explainer.
#[component]
pub fn TeachingMode() -> impl IntoView {
    let lab = Lab::expect();
    let shown = Shown::new();
    let pool = Pool::expect();
    let core = StoredValue::new_local(Core::new(pool));
    on_cleanup(move || pool.teach_stop());
    let reduced = prefers_reduced_motion();

    // Equal specs compare equal, so a change of any other part does not restart the player.
    let spec = Memo::new(move |_| {
        let state = lab.state();
        (compute::current_key(&state), ExplainContext::of(&state))
    });
    start_player(spec, core, shown, pool);

    play_frames(lab.views, core, shown);
    follow_playback(core, shown, reduced);
    reset_on_alt_r(move || core.update_value(|c| c.reset(shown)));

    let parts = Memo::new(move |_| {
        lab.drive.with(|d| DriveParts {
            dies: d.dies(),
            channels: d.preset().controller.channels,
            planes: d.preset().nand.planes,
        })
    });
    let link_name = Signal::derive(move || lab.drive.with(|d| d.preset().controller.link.name()));
    let highlight = Memo::new(move |_| {
        shown
            .journey
            .with(|j| j.as_ref().map(Journey::highlight).unwrap_or_default())
    });
    let read_pct = move || lab.workload.with(|w| w.read_pct());
    let follow = Callback::new(move |write| core.update_value(|c| c.follow(write, shown)));

    view! {
        <section
            id="activity"
            class="teaching"
            aria-labelledby="activity-title"
            data-sim-ns=move || shown.clock_ns.get().to_string()
            data-steps=move || shown.steps.get().to_string()
            data-playing=move || shown.playing.get().to_string()
            data-ready=move || shown.ready.get().to_string()
        >
            <div class="card activity-card">
                <h2 id="activity-title">"The drive at work"</h2>
                <Transport views=lab.views shown=shown core=core reduced=reduced />
                <p class="teach-clock" id="teach-clock">
                    {move || {
                        format!(
                            "Simulated time {} · {} events",
                            format::latency_us(shown.clock_ns.get() as f64 / NANOS_PER_US),
                            format::grouped(shown.steps.get() as f64),
                        )
                    }}
                </p>
                <p class="status" id="teach-status">{move || shown.status.get()}</p>
                <DrivePicture
                    parts=parts
                    activity=shown.activity
                    link_name=link_name
                    highlight=highlight
                />
                <PowerDraw trace=shown.power />
                <DieLegend />
                <p class="visually-hidden" id="teach-summary" aria-live="polite" aria-atomic="true">
                    {move || shown.spoken.get()}
                </p>
            </div>
            <FollowOne
                journey=shown.journey
                ready=shown.ready
                reads=Signal::derive(move || read_pct() > 0)
                writes=Signal::derive(move || read_pct() < 100)
                follow=follow
            />
            <Explainer explanation=shown.explanation />
        </section>
    }
}

/// Runs the player one step per animation frame, at the speed the state sets, until the view
/// unmounts.
fn play_frames(views: RwSignal<ViewSettings>, core: StoredValue<Core, LocalStorage>, shown: Shown) {
    let alive = Rc::new(Cell::new(true));
    {
        let alive = alive.clone();
        let keep = send_wrapper::SendWrapper::new(alive);
        on_cleanup(move || keep.set(false));
    }
    animate(
        alive,
        Rc::new(move |now_ms| {
            let speed = views
                .try_with_untracked(ViewSettings::speed_us_per_s)
                .unwrap_or(DEFAULT_SPEED_US_PER_S);
            core.try_update_value(|c| c.frame(now_ms, speed, shown));
        }),
    );
}

/// Alt+R resets the player, wherever the focus is, while the view is mounted.
fn reset_on_alt_r(reset: impl Fn() + 'static) {
    let keys = window_event_listener(ev::keydown, move |e| {
        if e.alt_key() && e.code() == "KeyR" {
            e.prevent_default();
            reset();
        }
    });
    on_cleanup(move || keys.remove());
}

/// Play, Pause, Step, Reset and the speed.
#[component]
fn Transport(
    /// The per-view settings (the speed is read and written).
    views: RwSignal<ViewSettings>,
    shown: Shown,
    core: StoredValue<Core, LocalStorage>,
    /// The system asks for reduced motion: no Play, only Step.
    reduced: bool,
) -> impl IntoView {
    let play = move |_| play(core, shown, reduced);
    let pause = move |_| pause(shown);
    let step = move |_| core.update_value(|c| c.step(shown));
    let reset = move |_| core.update_value(|c| c.reset(shown));
    view! {
        <div class="transport-bar">
        <div class="transport" role="group" aria-label="Playback">
            <button
                type="button"
                id="teach-play"
                aria-pressed=move || shown.playing.get().to_string()
                prop:disabled=reduced
                on:click=play
            >
                "Play"
            </button>
            <button type="button" id="teach-pause" on:click=pause>
                "Pause"
            </button>
            <button type="button" id="teach-step" on:click=step>
                "Step"
            </button>
            <button type="button" id="teach-reset" aria-keyshortcuts="Alt+R" on:click=reset>
                "Reset (Alt+R)"
            </button>
        </div>
        {reduced
            .then(|| {
                view! {
                    <p class="hint" id="teach-reduced">
                        "Your system asks for reduced motion, so nothing moves by itself: use Step."
                    </p>
                }
            })}
        <LadderSlider
            id="teach-speed"
            label="Speed (simulated time per second)"
            ladder=Signal::derive(speed_ladder)
            value=Signal::derive(move || views.with(ViewSettings::speed_us_per_s))
            on_change=Callback::new(move |v| views.update(|s| s.set_speed_us_per_s(v)))
            format=Callback::new(speed_text)
            value_text=Callback::new(speed_text)
            locked=locked(Control::Speed)
        />
        </div>
    }
}

/// Width and height of the power meter's trace, in SVG user units.
const TRACE_W: f64 = 600.0;
const TRACE_H: f64 = 60.0;

/// The drive's power draw now and over the last moments, against its budget.
#[component]
fn PowerDraw(
    /// The draw at each published instant.
    #[prop(into)]
    trace: Signal<PowerTrace>,
) -> impl IntoView {
    let now = move || {
        trace.with(|t| match (t.now_w(), t.budget_w()) {
            (Some(w), Some(b)) => format!(
                "Drawing now: {} of a {} budget",
                format::watts(w),
                format::watts(b)
            ),
            (Some(w), None) => format!("Drawing now: {} (no published budget)", format::watts(w)),
            (None, _) => "Drawing now: –".to_string(),
        })
    };
    let points = move || trace.with(|t| t.polyline(TRACE_W, TRACE_H));
    view! {
        <div class="power-draw" id="teach-power">
            <p class="power-now" id="teach-power-now">{now}</p>
            <svg
                class="power-trace"
                viewBox=format!("0 0 {TRACE_W} {TRACE_H}")
                preserveAspectRatio="none"
                role="img"
                aria-label="The drive's power draw over the last moments of simulated time, against its budget at the top"
            >
                <line class="power-budget" x1="0" y1="1" x2=TRACE_W y2="1"></line>
                <polyline class="power-line" points=points></polyline>
            </svg>
        </div>
    }
}

/// The drive as SVG: host, link and controller on top, one lane per channel with its dies,
/// laid out for the width of its box once the box has one (a phone's gets the front end
/// stacked and the lanes in more rows, so nothing scrolls sideways).
#[component]
fn DrivePicture(
    /// The current drive's dies, channels and planes.
    #[prop(into)]
    parts: Signal<DriveParts>,
    /// What the drive does now (`None` while it is prepared).
    #[prop(into)]
    activity: Signal<Option<Activity>>,
    /// The host link's name, e.g. `PCIe 4.0 x4`.
    #[prop(into)]
    link_name: Signal<&'static str>,
    /// Where the request followed is.
    #[prop(into)]
    highlight: Signal<Highlight>,
) -> impl IntoView {
    let box_ref = NodeRef::<leptos::html::Div>::new();
    let box_px = follow_box(box_ref, |e| Some(f64::from(e.client_width())));
    // Equal layouts compare equal, so a resize that changes nothing draws nothing again.
    let layout = Memo::new(move |_| {
        let s = parts.get();
        box_px
            .get()
            .map(|px| Layout::new(s.dies, s.channels, s.planes, px))
    });
    let description = move || {
        parts.with(|s| {
            format!(
                "The drive: host, {} link, controller, {} channels and {} dies with {} planes each. The summary below the legend says what they do.",
                link_name.get(),
                s.channels,
                s.dies,
                s.planes
            )
        })
    };
    let picture = move || {
        let l = layout.get()?;
        let lanes = (0..l.channels)
            .map(|ch| channel_lane(l, ch, activity, highlight))
            .collect_view();
        let dies = (0..l.dies)
            .map(|i| {
                let die = Memo::new(move |_| {
                    activity.with(|a| a.as_ref().and_then(|a| a.dies.get(i as usize).copied()))
                });
                let followed = Memo::new(move |_| highlight.with(|h| h.die == Some(i)));
                die_cell(l, i, die, followed)
            })
            .collect_view();
        Some(view! {
            <svg
                class="drive-picture"
                viewBox=l.view_box()
                style:width=l.css_width()
                style:min-width=l.css_min_width()
                role="img"
                aria-labelledby="drive-picture-title"
                preserveAspectRatio="xMinYMin meet"
            >
                <title id="drive-picture-title">{description}</title>
                <FrontEnd layout=l activity=activity link_name=link_name highlight=highlight />
                {lanes}
                {dies}
            </svg>
        })
    };
    view! { <div class="picture-box" node_ref=box_ref>{picture}</div> }
}

/// The host, the link's two directions and the controller, each busy or idle, with their
/// queues: in a row, or one under the other where the picture is narrow.
#[component]
fn FrontEnd(
    /// Where the boxes sit.
    layout: Layout,
    /// What the drive does now (`None` while it is prepared).
    activity: Signal<Option<Activity>>,
    /// The host link's name.
    link_name: Signal<&'static str>,
    /// Where the request followed is.
    highlight: Signal<Highlight>,
) -> impl IntoView {
    let pick = move |f: fn(&Activity) -> String| {
        move || activity.with(|a| a.as_ref().map(f).unwrap_or_default())
    };
    let busy_class =
        move |base: &'static str, f: fn(&Activity) -> bool, lit: fn(&Highlight) -> bool| {
            move || {
                let busy = activity.with(|a| a.as_ref().is_some_and(f));
                let followed = if highlight.with(lit) { " followed" } else { "" };
                format!("{base} {}{followed}", if busy { "busy" } else { "idle" })
            }
        };
    let [(host_x, host_y), (link_x, link_y), (ctrl_x, ctrl_y)] = layout.front_end();
    // The arrows point the way data goes: across a row, down and up a stack.
    let (to_drive, to_host) = if layout.stacked {
        ("↓ to the drive", "↑ to the host")
    } else {
        ("to the drive →", "← to the host")
    };
    view! {
        <g class=busy_class("host", |a| a.host_waiting > 0 || a.host_backlog > 0, |h| h.host)>
            <rect class="box" x=host_x y=host_y width=HOST_W height=BOX_H rx="8" />
            <text class="box-title" x=host_x + TEXT_PAD y=host_y + LINE_H>
                "Host"
            </text>
            <text x=host_x + TEXT_PAD y=host_y + 2.0 * LINE_H>
                {pick(host_line)}
            </text>
            <text x=host_x + TEXT_PAD y=host_y + 3.0 * LINE_H>
                {pick(|a| if a.open_loop {
                    format!("{} arrived, waiting", a.host_backlog)
                } else {
                    format!("{} waiting for the drive", a.host_waiting)
                })}
            </text>
        </g>
        <g class=busy_class("link link-write", |a| a.link_write_busy, |h| h.link)>
            <rect
                class="arrow"
                x=link_x
                y=link_y + CELL_GAP
                width=LINK_W
                height=ARROW_H
                rx="4"
            />
            <text x=link_x + TEXT_PAD y=link_y + LINE_H>
                {to_drive}
            </text>
        </g>
        <g class=busy_class("link link-read", |a| a.link_read_busy, |h| h.link)>
            <rect
                class="arrow"
                x=link_x
                y=link_y + BOX_H - ARROW_H - CELL_GAP
                width=LINK_W
                height=ARROW_H
                rx="4"
            />
            <text x=link_x + TEXT_PAD y=link_y + BOX_H - 2.0 * CELL_GAP - CELL_GAP>
                {to_host}
            </text>
        </g>
        <text class="link-name" x=link_x + TEXT_PAD y=link_y + BOX_H * HALF + CELL_GAP>
            {move || link_name.get()}
        </text>
        <g class=busy_class("controller", |a| a.controller_busy, |h| h.controller)>
            <rect class="box" x=ctrl_x y=ctrl_y width=CTRL_W height=BOX_H rx="8" />
            <text class="box-title" x=ctrl_x + TEXT_PAD y=ctrl_y + LINE_H>
                {pick(|a| {
                    format!(
                        "Controller{}",
                        if a.controller_busy { ": busy" } else { "" },
                    )
                })}
            </text>
            <text x=ctrl_x + TEXT_PAD y=ctrl_y + 2.0 * LINE_H>
                {pick(|a| format!("{} requests inside", a.in_device))}
            </text>
            <text x=ctrl_x + TEXT_PAD y=ctrl_y + 3.0 * LINE_H>
                {pick(|a| format!("{} writes wait for buffer", a.buffer_waiting))}
            </text>
        </g>
    }
}

/// One channel's lane: its bus, busy or idle, and its name.
fn channel_lane(
    l: Layout,
    ch: u32,
    activity: Signal<Option<Activity>>,
    highlight: Signal<Highlight>,
) -> impl IntoView {
    let y = l.lane_y(ch);
    // A lane too low for two lines of text says "busy" beside the name.
    let compact = l.lane_h() < 2.0 * LINE_H;
    let busy = move || {
        activity.with(|a| {
            a.as_ref()
                .and_then(|a| a.channels_busy.get(ch as usize).copied())
                .unwrap_or(false)
        })
    };
    view! {
        <g class=move || {
            let followed = highlight.with(|h| h.channel == Some(ch));
            format!(
                "channel {}{}",
                if busy() { "busy" } else { "idle" },
                if followed { " followed" } else { "" },
            )
        }>
            <rect
                class="channel-bus"
                x=CHANNEL_BAR_X
                y=y
                width=CHANNEL_BAR_W
                height=l.lane_h()
                rx="6"
            />
            <text
                class=if compact { "channel-label compact" } else { "channel-label" }
                x=CHANNEL_BAR_X + TEXT_PAD
                y=if compact { y + l.lane_h() * HALF } else { y + LINE_H }
            >
                {move || {
                    if compact && busy() {
                        format!("Ch {ch} busy")
                    } else {
                        format!("Ch {ch}")
                    }
                }}
            </text>
            <text
                class="channel-state"
                x=CHANNEL_BAR_X + TEXT_PAD
                y=y + 2.0 * LINE_H - CELL_GAP
            >
                {move || if busy() && !compact { "busy" } else { "" }}
            </text>
        </g>
    }
}

/// One die: its state's colour and letter, its queue and its planes.
fn die_cell(
    l: Layout,
    i: u32,
    die: Memo<Option<DieActivity>>,
    followed: Memo<bool>,
) -> impl IntoView {
    let (x, y) = l.die_xy(i);
    let state = move || die.get().map_or(DieState::Idle, |d| d.state);
    let queued = move || die.get().map_or(0, |d| d.queued);
    let plane_w = l.cell / f64::from(l.planes);
    let mark_h = l.cell * PLANE_MARK_SHARE;
    let planes = (0..l.planes)
        .map(|p| {
            let on = move || {
                die.get()
                    .is_some_and(|d| p < u8::BITS && d.planes_sensing & (1 << p) != 0)
            };
            view! {
                <rect
                    class=move || if on() { "plane on" } else { "plane" }
                    x=x + f64::from(p) * plane_w
                    y=y + l.cell - mark_h
                    width=plane_w - 1.0
                    height=mark_h
                />
            }
        })
        .collect_view();
    view! {
        <g class=move || {
            format!("die die-{}{}", state().id(), if followed.get() { " followed" } else { "" })
        }>
            <title>
                {move || {
                    let mark = if followed.get() { " (the request followed is here)" } else { "" };
                    format!("Die {i}: {}, {} waiting{mark}", state().label(), queued())
                }}
            </title>
            <rect class="die-body" x=x y=y width=l.cell height=l.cell rx="3" />
            <text class="die-letter" x=x + l.cell * HALF y=y + l.cell * HALF>
                {move || state().letter()}
            </text>
            <text class="die-queue" x=x + l.cell - CELL_GAP y=y + LINE_H * HALF>
                {move || {
                    let q = queued();
                    if q > 0 { q.to_string() } else { String::new() }
                }}
            </text>
            {planes}
        </g>
    }
}

/// What the die colours and letters mean.
#[component]
fn DieLegend() -> impl IntoView {
    view! {
        <ul class="die-legend" aria-label="Die states">
            {DieState::ALL
                .into_iter()
                .map(|s| {
                    view! {
                        <li>
                            <svg class=format!("swatch die die-{}", s.id()) viewBox="0 0 20 20" aria-hidden="true">
                                <rect class="die-body" x="1" y="1" width="18" height="18" rx="3" />
                                <text class="die-letter" x="10" y="10">{s.letter()}</text>
                            </svg>
                            {format!("{}{}", if s.letter().is_empty() { String::new() } else { format!("{}: ", s.letter()) }, s.label())}
                        </li>
                    }
                })
                .collect_view()}
            <li>"Number in a die's corner: requests waiting for it. Bar at a die's foot: planes sensing."</li>
        </ul>
    }
}

/// Utilisation bars, the sentence naming the limit and Little's law.
#[component]
fn Explainer(
    /// The explainer for the current point (`None` while its run is computed).
    #[prop(into)]
    explanation: Signal<Option<Explanation>>,
) -> impl IntoView {
    let bars = move || {
        explanation.with(|e| {
            e.as_ref()
                .map(|e| {
                    e.bars
                        .iter()
                        .map(|b| {
                            let pct = bar_percent(b.busy);
                            view! {
                                <li class="bar-row" class:limit=b.limit id=format!("bar-{}", b.id)>
                                    <span class="bar-label">{b.label.clone()}</span>
                                    <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                                        <rect class="bar-track" x="0" y="0" width="100" height="10" />
                                        <rect class="bar-fill" x="0" y="0" width=pct height="10" />
                                    </svg>
                                    <span class="bar-value">{format!("{pct:.0}% busy")}</span>
                                </li>
                            }
                        })
                        .collect_view()
                })
        })
    };
    view! {
        <section
            class="card explain"
            id="explain"
            aria-labelledby="explain-title"
            data-limit=move || {
                explanation.with(|e| e.as_ref().map_or("pending", |e| e.limit.id()))
            }
        >
            <h2 id="explain-title">"What limits this point"</h2>
            <GuideLink page=GuidePage::Teaching />
            <p class="explain-sentence" id="explain-sentence">
                {move || {
                    explanation
                        .with(|e| {
                            e.as_ref()
                                .map_or_else(
                                    || "Working out what limits this point…".to_string(),
                                    |e| format!("{}.", e.sentence),
                                )
                        })
                }}
            </p>
            <ul class="bars" aria-label="How busy each part is">{bars}</ul>
            <p class="little" id="explain-little">
                {move || explanation.with(|e| e.as_ref().map(|e| e.little.clone()))}
            </p>
        </section>
    }
}

/// The host box's first line: the requests in flight of a closed loop, or (requests arriving
/// on their own clock) the most the host lets reach the drive.
fn host_line(a: &Activity) -> String {
    if a.open_loop {
        format!("at most {} at the drive", a.iodepth)
    } else {
        format!("{} requests in flight", a.iodepth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A desktop's card (the page at 1,280 px), a phone's (390 px wide, the card's padding
    /// off) and a narrow embed's.
    const DESKTOP_PX: f64 = 894.0;
    const PHONE_PX: f64 = 324.0;
    const EMBED_PX: f64 = 480.0;

    #[test]
    fn every_die_fits_in_the_picture_without_overlap_in_any_box() {
        for box_px in [DESKTOP_PX, EMBED_PX, PHONE_PX, 0.0] {
            for (dies, channels) in [
                (1, 8),
                (8, 8),
                (32, 8),
                (256, 8),
                (256, 4),
                (17, 4),
                (256, 1),
            ] {
                let l = Layout::new(dies, channels, 2, box_px);
                let mut cells: Vec<(f64, f64)> = (0..dies).map(|i| l.die_xy(i)).collect();
                for &(x, y) in &cells {
                    assert!(
                        x >= LANE_X && x + l.cell <= l.width && l.width <= VIEW_W,
                        "{box_px} px, {dies}/{channels}: x {x}"
                    );
                    assert!(
                        y >= l.top && y + l.cell <= l.height,
                        "{box_px} px, {dies}/{channels}: y {y}"
                    );
                }
                cells.sort_by(|a, b| a.partial_cmp(b).unwrap());
                cells.dedup();
                assert_eq!(cells.len(), dies as usize, "two dies share a cell");
                assert!(l.cell >= MIN_CELL);
                // The front end ends above the first lane.
                let [.., (_, ctrl_y)] = l.front_end();
                assert!(ctrl_y + BOX_H < l.top, "{box_px} px, {dies}/{channels}");
            }
        }
    }

    #[test]
    fn a_small_drive_s_picture_is_as_wide_as_its_front_end_and_a_large_one_as_its_lanes() {
        // The default drive: 32 dies on 8 channels, four to a lane of 72-unit cells.
        let small = Layout::new(32, 8, 2, DESKTOP_PX);
        assert_eq!((small.per_row, small.cell), (4, MAX_CELL));
        assert_eq!(small.width, FRONT_END_W);
        assert!(!small.stacked && !small.narrow);
        // 120 units of front end, then 8 lanes of one 72-unit row and a 10-unit gap.
        assert_eq!(small.view_box(), "0 0 790 776");
        // As large as before per unit where it fills its box; 14 px text at least.
        assert_eq!(
            (small.css_width(), small.css_min_width()),
            ("79.00%".into(), "553px".into())
        );
        // 256 dies: 32 to a lane, which fills the widest picture.
        let large = Layout::new(256, 8, 2, DESKTOP_PX);
        let last = large.die_xy(255);
        assert_eq!(large.width, last.0 + large.cell + CELL_GAP);
        assert!(large.width > FRONT_END_W && large.width <= VIEW_W);
    }

    #[test]
    fn a_phone_s_box_gets_the_front_end_stacked_and_a_picture_it_holds_at_14_px_text() {
        // 324 px hold 462 units at 0.7 px a unit, 450 in whole steps of 50.
        for dies in [1, 32, 64, 256] {
            let l = Layout::new(dies, 8, 2, PHONE_PX);
            assert!(l.stacked && l.narrow, "{dies} dies");
            assert!(
                l.width * MIN_PX_PER_UNIT <= PHONE_PX,
                "{dies} dies: {} units",
                l.width
            );
            assert_eq!(l.css_width(), format!("min(100%, {}px)", l.width.ceil()));
        }
        // Host, link and controller one under the other, then the lanes.
        let l = Layout::new(32, 8, 2, PHONE_PX);
        assert_eq!(l.front_end(), [(10.0, 10.0), (10.0, 112.0), (10.0, 214.0)]);
        assert_eq!(l.top, 324.0);
        // The default drive's lanes keep their four 72-unit cells: 110 + 4 x 76 = 414 units.
        assert_eq!(
            (l.per_row, l.rows, l.cell, l.width),
            (4, 1, MAX_CELL, 414.0)
        );
        // 256 dies on 8 channels: 32 to a lane in three rows of at most 11.
        let l = Layout::new(256, 8, 2, PHONE_PX);
        assert_eq!((l.per_row, l.rows), (11, 3));
    }

    #[test]
    fn a_box_between_a_phone_s_and_a_desktop_s_wraps_lanes_before_it_stacks_the_front_end() {
        // 600 px hold 857 units, 850 in steps: the front end's row (790) fits, a lane of 32
        // dies at 24 units each (878) does not.
        let l = Layout::new(256, 8, 2, 600.0);
        assert!(l.narrow && !l.stacked);
        assert_eq!((l.per_row, l.rows), (16, 2));
        assert!(l.width * MIN_PX_PER_UNIT <= 600.0);
    }

    #[test]
    fn a_resize_within_a_step_of_room_keeps_the_layout_and_a_box_not_measured_counts_as_wide() {
        assert_eq!(
            Layout::new(256, 8, 2, PHONE_PX),
            Layout::new(256, 8, 2, PHONE_PX + 10.0)
        );
        for unmeasured in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            assert_eq!(
                Layout::new(256, 8, 2, unmeasured),
                Layout::new(256, 8, 2, DESKTOP_PX),
                "{unmeasured}"
            );
        }
    }

    #[test]
    fn a_256_die_drive_keeps_cells_a_letter_fits_in() {
        let l = Layout::new(256, 8, 2, DESKTOP_PX);
        assert_eq!((l.per_row, l.rows), (32, 1));
        assert!(l.cell >= MIN_CELL, "{}", l.cell);
    }
}

//! Batches of games for learning: `N` games of one game and variant held in the
//! core, stepped together, their observations, masks, rewards and flags written into
//! buffers the caller owns (the bindings hand NumPy's arrays straight in).
//!
//! Each game has one agent seat, the other seats played here by [`Opponent`]s until it is
//! the agent's turn again or the game is over; or, in self-play ([`Agents::All`]), every
//! seat is the agent and each step plays the action of the seat to move, every seat's
//! observation and mask written. The definitions are the single Gymnasium environment's
//! (`cardtable.rl.gymnasium.CardtableEnv`): the observation is the agent seat's
//! ([`Observe`]), the mask its legal actions (all zeros when it is not to act), the reward 0
//! until the game ends and then the seat's share of the returns, `terminated` when the game
//! is over, `truncated` when `max_actions` actions (everyone's) have been played.
//!
//! **Seeds.** Game `i` has its own generator, seeded from the base seed and `i` alone
//! ([`game_seed`]); every deal, drawn agent seat and opponent's choice of that game draws
//! from it and from nothing else. So a game's trajectory is a function of the base seed,
//! its index and the actions it is given, whatever the batch size and the thread count.
//!
//! **Threads.** A step splits the batch into contiguous runs of games, one a thread
//! (`std::thread::scope`); the games share nothing, so no locks and the same results.
//!
//! **Auto-reset.** A game that ends is dealt again from its own generator: at its next step
//! ([`Autoreset::NextStep`], Gymnasium's default: that step's action is ignored and it
//! reports the new game's first observation with reward 0), or within the same step
//! ([`Autoreset::SameStep`]: the final observation goes to its row of the
//! `final_observations` buffer and the new game's first one to `observations`).
//!
//! **Observations** are float32 by default, or int8 ([`Cell`]): the same numbers, each
//! times its column's divisor ([`Config::divisors`]).

use rand::{Rng, SeedableRng};

use crate::game::{actions_of, mask_actions, new_game, Game, PlayoutRng};
use crate::observation::Observe;
use crate::rollout::Guided;

/// Who plays a seat that is not the agent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// A uniformly random legal action.
    Random,
    /// The game's guided rollout policy ([`Guided::guided_action`]): cheap play in the
    /// manner of the `easy` level.
    Guided,
}

/// Which seats the agent holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Agents {
    /// One seat per game (`None`: drawn at each deal from the game's generator); the other
    /// seats played by `opponents`, listed from the seat on the agent's left onwards (one
    /// per other seat).
    One {
        seat: Option<usize>,
        opponents: Vec<Opponent>,
    },
    /// Self-play: every seat is the agent; each step plays the seat to move.
    All,
}

/// When a finished game is dealt again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Autoreset {
    NextStep,
    SameStep,
}

/// How a batch is made.
#[derive(Debug, Clone)]
pub struct Config<G: Game> {
    pub options: G::Options,
    pub games: usize,
    pub agents: Agents,
    /// Truncates a game after this many actions (everyone's), as the single environment.
    pub max_actions: Option<u32>,
    pub autoreset: Autoreset,
    /// Threads to step with (at least 1).
    pub threads: usize,
    /// Each observation column's divisor, for int8 observations ([`Cell`]); empty for
    /// float32 ones.
    pub divisors: Vec<f32>,
}

/// Why a batch could not be made, or a step was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// Settings that cannot run (a count, a seat, the opponents).
    Config(String),
    /// Buffers of the wrong length.
    Buffer(String),
    /// An action number outside the game's actions.
    OutOfRange { game: usize, action: i64 },
    /// An action the rules do not allow now.
    Illegal {
        game: usize,
        seat: usize,
        action: usize,
        legal: Vec<usize>,
    },
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Config(why) | BatchError::Buffer(why) => f.write_str(why),
            BatchError::OutOfRange { game, action } => {
                write!(
                    f,
                    "game {game}: action number {action} is not an action number"
                )
            }
            BatchError::Illegal {
                game,
                seat,
                action,
                legal,
            } => write!(
                f,
                "game {game}: action {action} is not legal for seat {seat} now; legal: {legal:?}"
            ),
        }
    }
}

impl std::error::Error for BatchError {}

/// The generator seed of game `index` under base seed `base`: SplitMix64's finalizer over
/// the two, so that neighbouring bases and indices give unrelated streams.
pub fn game_seed(base: u64, index: usize) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    mix(mix(base).wrapping_add(index as u64))
}

/// One game of the batch.
#[derive(Clone)]
struct Slot<G> {
    state: G,
    rng: PlayoutRng,
    /// [`Batch::sample`]'s generator, apart from the game's: drawing the agent's actions
    /// changes nothing of the game's own chance.
    pick: PlayoutRng,
    /// The agent's seat (0 in self-play, where it is not used).
    seat: usize,
    /// Actions played in this game, everyone's.
    actions: u32,
    /// Over or truncated, waiting for its next step to be dealt again (next-step reset).
    done: bool,
}

/// The buffers a step writes, for all the games or for a run of them: row `i` of each is
/// game `i`'s. `V` is the number of views a game gives (1, or every seat in self-play).
pub struct Buffers<'a, O: Cell = f32> {
    /// `games × V × observation_size`.
    pub observations: &'a mut [O],
    /// `games × V × NUM_ACTIONS`, 1 for a legal action of that view's seat when it is to act.
    pub masks: &'a mut [i8],
    /// `games × V`.
    pub rewards: &'a mut [f32],
    pub terminations: &'a mut [bool],
    pub truncations: &'a mut [bool],
    /// The seat to act in each game, -1 when none (a finished game).
    pub to_move: &'a mut [i64],
    /// The agent's seat in each game (-1 in self-play).
    pub seats: &'a mut [i64],
    /// `games × V × observation_size`, written only for games that ended in this step, and
    /// only with [`Autoreset::SameStep`] (empty otherwise).
    pub final_observations: &'a mut [O],
}

impl<'a, O: Cell> Buffers<'a, O> {
    /// The first `games` rows and the rest.
    fn split_at(self, games: usize, views: usize, size: usize, actions: usize) -> (Self, Self) {
        fn cut<T>(s: &mut [T], at: usize) -> (&mut [T], &mut [T]) {
            let at = at.min(s.len());
            s.split_at_mut(at)
        }
        let (o1, o2) = cut(self.observations, games * views * size);
        let (m1, m2) = cut(self.masks, games * views * actions);
        let (r1, r2) = cut(self.rewards, games * views);
        let (te1, te2) = cut(self.terminations, games);
        let (tr1, tr2) = cut(self.truncations, games);
        let (t1, t2) = cut(self.to_move, games);
        let (s1, s2) = cut(self.seats, games);
        let (f1, f2) = cut(self.final_observations, games * views * size);
        (
            Buffers {
                observations: o1,
                masks: m1,
                rewards: r1,
                terminations: te1,
                truncations: tr1,
                to_move: t1,
                seats: s1,
                final_observations: f1,
            },
            Buffers {
                observations: o2,
                masks: m2,
                rewards: r2,
                terminations: te2,
                truncations: tr2,
                to_move: t2,
                seats: s2,
                final_observations: f2,
            },
        )
    }
}

/// The fixed facts every game's step needs.
struct Shape<'c, G: Game> {
    config: &'c Config<G>,
    players: usize,
    views: usize,
    size: usize,
}

/// `N` games of one game and variant, stepped together.
pub struct Batch<G: Game + Observe + Guided> {
    config: Config<G>,
    players: usize,
    slots: Vec<Slot<G>>,
}

/// What a game's seed is mixed with to seed its [`Batch::sample`] generator.
const PICKS: u64 = 0x7069_636b_7069_636b;

/// Games a thread takes at the least: below it, a thread costs more than it saves.
const MIN_GAMES_PER_THREAD: usize = 256;

impl<G: Game + Observe + Guided> Batch<G> {
    /// A batch of `config.games` games, dealt from base seed 0 (call [`Batch::reset`]).
    pub fn new(config: Config<G>) -> Result<Self, BatchError> {
        let players = G::options_players(&config.options);
        if config.games == 0 {
            return Err(BatchError::Config("a batch holds at least one game".into()));
        }
        if config.threads == 0 {
            return Err(BatchError::Config("threads must be at least 1".into()));
        }
        if config.max_actions == Some(0) {
            return Err(BatchError::Config("max_actions must be at least 1".into()));
        }
        if let Agents::One { seat, opponents } = &config.agents {
            if let Some(seat) = seat {
                if *seat >= players {
                    return Err(BatchError::Config(format!(
                        "seat must be a seat 0-{} or None, not {seat}",
                        players - 1
                    )));
                }
            }
            if opponents.len() != players - 1 {
                return Err(BatchError::Config(format!(
                    "{} opponents given; {} with {players} players needs {}",
                    opponents.len(),
                    G::NAME,
                    players - 1
                )));
            }
        }
        let blank = new_game::<G>(&config.options, 0);
        let slots = (0..config.games)
            .map(|_| Slot {
                state: blank.clone(),
                rng: PlayoutRng::seed_from_u64(0),
                pick: PlayoutRng::seed_from_u64(PICKS),
                seat: 0,
                actions: 0,
                done: true,
            })
            .collect();
        Ok(Batch {
            config,
            players,
            slots,
        })
    }

    pub fn config(&self) -> &Config<G> {
        &self.config
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// Views per game: 1, or every seat in self-play.
    pub fn views(&self) -> usize {
        match self.config.agents {
            Agents::One { .. } => 1,
            Agents::All => self.players,
        }
    }

    pub fn observation_size(&self) -> usize {
        G::observation_size(self.players)
    }

    pub fn set_threads(&mut self, threads: usize) -> Result<(), BatchError> {
        if threads == 0 {
            return Err(BatchError::Config("threads must be at least 1".into()));
        }
        self.config.threads = threads;
        Ok(())
    }

    /// Game `index`'s state.
    pub fn state(&self, index: usize) -> &G {
        &self.slots[index].state
    }

    /// Game `index`'s agent seat (0 in self-play).
    pub fn seat(&self, index: usize) -> usize {
        self.slots[index].seat
    }

    fn check_buffers<O: Cell>(&self, out: &Buffers<'_, O>) -> Result<(), BatchError> {
        if O::NEEDS_DIVISORS && self.config.divisors.len() != self.observation_size() {
            return Err(BatchError::Config(format!(
                "int8 observations need one divisor a column: {} given for {} columns",
                self.config.divisors.len(),
                self.observation_size()
            )));
        }
        let (n, v, size, a) = (
            self.len(),
            self.views(),
            self.observation_size(),
            G::NUM_ACTIONS,
        );
        let finals = match self.config.autoreset {
            Autoreset::SameStep => n * v * size,
            Autoreset::NextStep => out.final_observations.len(),
        };
        let lengths = [
            ("observations", out.observations.len(), n * v * size),
            ("masks", out.masks.len(), n * v * a),
            ("rewards", out.rewards.len(), n * v),
            ("terminations", out.terminations.len(), n),
            ("truncations", out.truncations.len(), n),
            ("to_move", out.to_move.len(), n),
            ("seats", out.seats.len(), n),
            ("final_observations", out.final_observations.len(), finals),
        ];
        for (name, got, want) in lengths {
            if got != want {
                return Err(BatchError::Buffer(format!(
                    "the {name} buffer holds {got} values, not {want}"
                )));
            }
        }
        Ok(())
    }

    /// Every game dealt anew; game `i`'s generator seeded with `seeds[i]` (see
    /// [`game_seed`]), or, when `seeds` is `None`, each game's generator carrying on.
    pub fn reset<O: Cell>(
        &mut self,
        seeds: Option<&[u64]>,
        out: Buffers<'_, O>,
    ) -> Result<(), BatchError> {
        self.check_buffers(&out)?;
        if let Some(seeds) = seeds {
            if seeds.len() != self.len() {
                return Err(BatchError::Buffer(format!(
                    "{} seeds given for {} games",
                    seeds.len(),
                    self.len()
                )));
            }
            for (slot, &seed) in self.slots.iter_mut().zip(seeds) {
                slot.rng = PlayoutRng::seed_from_u64(seed);
                slot.pick = PlayoutRng::seed_from_u64(seed ^ PICKS);
            }
        }
        self.run(None, out, true);
        Ok(())
    }

    /// Every game dealt anew from base seed `seed` (game `i` from `game_seed(seed, i)`).
    pub fn reset_from<O: Cell>(
        &mut self,
        seed: u64,
        out: Buffers<'_, O>,
    ) -> Result<(), BatchError> {
        let seeds: Vec<u64> = (0..self.len()).map(|i| game_seed(seed, i)).collect();
        self.reset(Some(&seeds), out)
    }

    /// Checks every game's action before any is played: the first bad one is refused and
    /// nothing changes. A game waiting to be dealt again (next-step reset) takes any value.
    pub fn check(&self, actions: &[i64]) -> Result<(), BatchError> {
        if actions.len() != self.len() {
            return Err(BatchError::Buffer(format!(
                "{} actions given for {} games",
                actions.len(),
                self.len()
            )));
        }
        for (game, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            if slot.done {
                continue;
            }
            let Some(seat) = slot.state.to_move() else {
                continue;
            };
            if matches!(self.config.agents, Agents::One { .. }) && seat != slot.seat {
                continue; // cut short before the agent's turn: the step truncates it
            }
            if !(0..G::NUM_ACTIONS as i64).contains(&action) {
                return Err(BatchError::OutOfRange { game, action });
            }
            let mask = slot.state.legal_mask();
            if mask >> action & 1 == 0 {
                return Err(BatchError::Illegal {
                    game,
                    seat,
                    action: action as usize,
                    legal: actions_of(mask),
                });
            }
        }
        Ok(())
    }

    /// Plays each game's action (checked first, all of them), the opponents until the
    /// agent's turn, and writes the results.
    pub fn step<O: Cell>(
        &mut self,
        actions: &[i64],
        out: Buffers<'_, O>,
    ) -> Result<(), BatchError> {
        self.check_buffers(&out)?;
        self.check(actions)?;
        self.run(Some(actions), out, false);
        Ok(())
    }

    /// Resets (`reset`) or steps every game, split over the threads.
    fn run<O: Cell>(&mut self, actions: Option<&[i64]>, out: Buffers<'_, O>, reset: bool) {
        let n = self.len();
        let threads = self
            .config
            .threads
            .min(n.div_ceil(MIN_GAMES_PER_THREAD))
            .max(1);
        let shape = Shape {
            config: &self.config,
            players: self.players,
            views: match self.config.agents {
                Agents::One { .. } => 1,
                Agents::All => self.players,
            },
            size: G::observation_size(self.players),
        };
        if threads == 1 {
            run_games(&shape, &mut self.slots, actions, out, reset);
            return;
        }
        let per = n.div_ceil(threads);
        std::thread::scope(|scope| {
            let mut slots: &mut [Slot<G>] = &mut self.slots;
            let mut rest = out;
            let mut done = 0;
            let shape = &shape;
            while !slots.is_empty() {
                let take = per.min(slots.len());
                let (here, there) = slots.split_at_mut(take);
                let (buffers, others) =
                    rest.split_at(take, shape.views, shape.size, G::NUM_ACTIONS);
                let acts = actions.map(|a| &a[done..done + take]);
                if there.is_empty() {
                    // The last run on this thread, while the others work.
                    run_games(shape, here, acts, buffers, reset);
                } else {
                    scope.spawn(move || run_games(shape, here, acts, buffers, reset));
                }
                slots = there;
                rest = others;
                done += take;
            }
        });
    }
}

/// Steps (or resets) a run of games into their rows of the buffers.
fn run_games<G: Game + Observe + Guided, O: Cell>(
    shape: &Shape<'_, G>,
    slots: &mut [Slot<G>],
    actions: Option<&[i64]>,
    out: Buffers<'_, O>,
    reset: bool,
) {
    let (v, size, a) = (shape.views, shape.size, G::NUM_ACTIONS);
    // One float32 observation for the forms written through it (int8).
    let mut scratch = vec![0.0; if O::NEEDS_DIVISORS { size } else { 0 }];
    let mut finals = out.final_observations.chunks_mut(v * size);
    let rows = slots
        .iter_mut()
        .zip(out.observations.chunks_mut(v * size))
        .zip(out.masks.chunks_mut(v * a))
        .zip(out.rewards.chunks_mut(v))
        .zip(out.terminations.iter_mut())
        .zip(out.truncations.iter_mut())
        .zip(out.to_move.iter_mut())
        .zip(out.seats.iter_mut());
    for (i, (((((((slot, obs), mask), reward), terminated), truncated), to_move), seat)) in
        rows.enumerate()
    {
        let final_row = finals.next();
        reward.fill(0.0);
        *terminated = false;
        *truncated = false;
        if reset || slot.done {
            deal(shape, slot);
        } else {
            if at_agents_turn(shape, slot) {
                let action = actions.expect("a step has actions")[i] as usize;
                slot.state.apply(action);
                slot.actions += 1;
                play_opponents(shape, slot);
            }
            // Else the game ended or was cut short by `max_actions` before the agent's
            // first turn (while it was dealt): this step reports it.
            if let (None, Some(returns)) = (slot.state.to_move(), slot.state.returns()) {
                *terminated = true;
                match shape.config.agents {
                    Agents::One { .. } => reward[0] = returns[slot.seat] as f32,
                    Agents::All => {
                        for (r, &x) in reward.iter_mut().zip(&returns[..shape.players]) {
                            *r = x as f32;
                        }
                    }
                }
            } else {
                *truncated = shape
                    .config
                    .max_actions
                    .is_some_and(|limit| slot.actions >= limit);
            }
        }
        if *terminated || *truncated {
            match (shape.config.autoreset, final_row) {
                (Autoreset::SameStep, Some(row)) => {
                    write_views(shape, slot, row, mask, &mut scratch);
                    deal(shape, slot);
                }
                _ => slot.done = true,
            }
        }
        write_views(shape, slot, obs, mask, &mut scratch);
        *to_move = slot.state.to_move().map_or(-1, |s| s as i64);
        *seat = match shape.config.agents {
            Agents::One { .. } => slot.seat as i64,
            Agents::All => -1,
        };
    }
}

/// Whether a live game waits for the agent (for self-play: for anyone).
fn at_agents_turn<G: Game + Observe + Guided>(shape: &Shape<'_, G>, slot: &Slot<G>) -> bool {
    match (slot.state.to_move(), &shape.config.agents) {
        (None, _) => false,
        (Some(seat), Agents::One { .. }) => seat == slot.seat,
        (Some(_), Agents::All) => true,
    }
}

/// A new game from the slot's generator: its seed, then the agent's seat when drawn, then
/// the opponents' moves up to the agent's turn.
fn deal<G: Game + Observe + Guided>(shape: &Shape<'_, G>, slot: &mut Slot<G>) {
    let seed = slot.rng.random::<u64>() >> 1;
    slot.state = new_game::<G>(&shape.config.options, i128::from(seed));
    slot.seat = match &shape.config.agents {
        Agents::One { seat: Some(s), .. } => *s,
        Agents::One { seat: None, .. } => slot.rng.random_range(0..shape.players),
        Agents::All => 0,
    };
    slot.actions = 0;
    slot.done = false;
    play_opponents(shape, slot);
}

/// The opponents act until the agent is to act, the game ends or it is cut short.
fn play_opponents<G: Game + Observe + Guided>(shape: &Shape<'_, G>, slot: &mut Slot<G>) {
    let Agents::One { opponents, .. } = &shape.config.agents else {
        return;
    };
    let players = shape.players;
    while let Some(seat) = slot.state.to_move() {
        if seat == slot.seat
            || shape
                .config
                .max_actions
                .is_some_and(|limit| slot.actions >= limit)
        {
            return;
        }
        let action = match opponents[(seat + players - slot.seat - 1) % players] {
            Opponent::Random => slot.state.random_action(&mut slot.rng),
            Opponent::Guided => slot.state.guided_action(&mut slot.rng),
        };
        slot.state.apply(action);
        slot.actions += 1;
    }
}

/// Each view's observation and mask (the mask 0 unless that view's seat is to act).
fn write_views<G: Game + Observe + Guided, O: Cell>(
    shape: &Shape<'_, G>,
    slot: &Slot<G>,
    obs: &mut [O],
    mask: &mut [i8],
    scratch: &mut [f32],
) {
    let a = G::NUM_ACTIONS;
    let to_move = slot.state.to_move();
    let legal = if to_move.is_some() {
        slot.state.legal_mask()
    } else {
        0
    };
    let seats = match shape.config.agents {
        Agents::One { .. } => slot.seat..slot.seat + 1,
        Agents::All => 0..shape.players,
    };
    for (k, seat) in seats.enumerate() {
        O::observe(
            &slot.state,
            seat,
            &mut obs[k * shape.size..(k + 1) * shape.size],
            scratch,
            &shape.config.divisors,
        );
        let row = &mut mask[k * a..(k + 1) * a];
        row.fill(0);
        if to_move == Some(seat) {
            for action in mask_actions(legal) {
                row[action] = 1;
            }
        }
    }
}

mod cell;
mod pick;

pub use cell::Cell;

#[cfg(test)]
mod tests;

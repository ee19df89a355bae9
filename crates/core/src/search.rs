//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
//! Whitehouse, IEEE TCIAIG 4(2), 2012) in the core: the algorithm of
//! `cardtable.bots.ismcts`, over any game with a determinizer.
//!
//! The tree belongs to one seat. Each iteration samples a deal consistent with the seat's
//! knowledge, selects down the tree among the children legal in that deal by UCB1 with
//! availability counts, expands one untried legal action, plays out the rest (uniformly at
//! random, or with the game's guided policy to the end of the hand and its estimate there,
//! [`crate::rollout`]), and backs up each node's mover's return. The chosen action is the
//! most visited at the root (ties: the better mean); with `stop_early` the search ends
//! once no iteration left could change that choice.
//!
//! With more than one thread the search is *root parallel*: each thread grows a tree of its
//! own from its own generator (seeded from the caller's), with its share of the iteration
//! budget, and the roots' statistics are summed. The threads share nothing while they
//! search, so they scale with the cores; the same seed and thread count give the same
//! result under an iteration budget.

use std::time::Instant;

use crate::deal_pool::Pool;
use crate::game::{playout, Determinize, PlayoutRng};
pub use crate::inference::Inference;
use crate::rollout::{Guided, PRIOR_ACTIONS};
use rand::{Rng, SeedableRng};

/// How long a search may run: iterations, seconds, or both (whichever ends first).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub iterations: Option<u64>,
    pub seconds: Option<f64>,
}

/// How a search plays on from the node it adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random legal actions to the end of the game.
    Uniform,
    /// The game's guided policy, to the end of the hand and its estimate there.
    Guided,
    /// The guided policy, but the hand solved exactly instead once at most this many cards
    /// are left in all hands ([`Guided::solved_returns`]).
    Solved(u32),
    /// The guided policy, with the game's learnt estimate where it stops
    /// ([`Guided::learned_rollout`]).
    Learned,
    /// The guided policy to the end of the deal being played at the root, each seat's
    /// return its side's points from that deal alone ([`Guided::deal_rollout`]), in a game
    /// whose deals are scored on their own ([`Guided::DEAL_HORIZON`]: Neuf).
    Deal,
}

/// The settings of a search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub budget: Budget,
    /// UCB1's exploration constant (`bots.ismcts`: 0.7).
    pub exploration: f64,
    pub stop_early: bool,
    pub rollout: Rollout,
    /// Trees grown side by side, one a thread (at least 1).
    pub threads: usize,
    /// Deals weighed by the others' plays ([`crate::inference`]); `None`: sampled alike.
    pub inference: Option<Inference>,
    /// The weight of the game's learned policy prior ([`Guided::prior`]) in a node's
    /// score, `prior · P(action) / (1 + visits)`, and the prior's order for a node's
    /// untried actions; 0: no prior (untried actions in random order).
    pub prior: f64,
}

/// What a search found: the action chosen and, per action searched at the root, its
/// visits, mean return for the searcher and the standard deviation of the returns behind
/// that mean (so a caller can tell how sure each mean is).
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub action: usize,
    pub visits: Vec<(usize, u32)>,
    pub values: Vec<(usize, f64)>,
    pub deviations: Vec<(usize, f64)>,
    pub iterations: u64,
    pub seconds: f64,
}

/// Why a search could not start: settings that cannot run (Python's
/// `InvalidBudgetError`), or a knower whose turn it is not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    Settings(String),
    NotTheTurn(String),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Settings(why) | SearchError::NotTheTurn(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SearchError {}

/// A node of the tree: the action that led here was chosen by `mover`; `total` sums that
/// seat's returns over the `visits` through it; `avail` counts the iterations in which the
/// action was legal.
struct Node {
    mover: u8,
    visits: u32,
    avail: u32,
    total: f64,
    /// The sum of the squares of those returns: kept for the root's children alone, whose
    /// spread the search reports (0 deeper down).
    squares: f64,
    /// The prior's chance of the action that led here, in the state that first met it.
    prior: f32,
    children: Vec<(u16, u32)>,
}

impl Node {
    fn new(mover: usize) -> Node {
        Node {
            mover: mover as u8,
            visits: 0,
            avail: 1,
            total: 0.0,
            squares: 0.0,
            prior: 0.0,
            children: Vec::new(),
        }
    }

    fn child(&self, action: usize) -> Option<u32> {
        self.children
            .iter()
            .find(|&&(a, _)| usize::from(a) == action)
            .map(|&(_, n)| n)
    }
}

/// Checks a budget as `bots.ismcts.check_budget` does.
pub fn check_budget(budget: &Budget) -> Result<(), SearchError> {
    if budget.iterations.is_none() && budget.seconds.is_none() {
        return Err(SearchError::Settings(
            "give a search budget: iterations, seconds or both".into(),
        ));
    }
    if budget.iterations == Some(0) {
        return Err(SearchError::Settings(
            "iterations must be a positive whole number, not 0".into(),
        ));
    }
    check_seconds(budget.seconds)
}

/// A time budget, when there is one, is a positive number of seconds.
pub fn check_seconds(seconds: Option<f64>) -> Result<(), SearchError> {
    match seconds {
        Some(s) if !s.is_finite() || s <= 0.0 => Err(SearchError::Settings(format!(
            "seconds must be a positive number, not {s}"
        ))),
        _ => Ok(()),
    }
}

/// Searches for the knower of `knowledge`, whose turn it must be.
/// With `settings.inference` each iteration takes its deal from a weighed pool drawn once,
/// before the trees grow (every thread's tree from the same pool).
pub fn search<G: Determinize + Guided + Sync>(
    knowledge: &G::Knowledge,
    rng: &mut PlayoutRng,
    settings: &Settings,
) -> Result<Found, SearchError> {
    let Some(inference) = settings.inference else {
        let sample = |rng: &mut PlayoutRng| G::sample(knowledge, rng);
        return search_deals(G::knower(knowledge), &sample, rng, settings);
    };
    inference.check().map_err(SearchError::Settings)?;
    check_budget(&settings.budget)?;
    let pool = Pool::<G>::draw(knowledge, rng, &inference);
    let sample = |rng: &mut PlayoutRng| pool.pick(rng);
    search_deals(G::knower(knowledge), &sample, rng, settings)
}

/// Searches `state` itself for the seat to move, every card in view: each iteration plays
/// the true deal (the stock's order too), where [`search`] samples one. No seat may play
/// so; it is the cheater's search, a measuring stick for the strength tables.
pub fn search_seeing<G: Determinize + Guided + Sync>(
    state: &G,
    rng: &mut PlayoutRng,
    settings: &Settings,
) -> Result<Found, SearchError> {
    let Some(seat) = state.to_move() else {
        return Err(SearchError::NotTheTurn("the game is over".into()));
    };
    let sample = |_: &mut PlayoutRng| state.clone();
    search_deals(seat, &sample, rng, settings)
}

/// Where a search's deals come from: the determinizer, or the one true state.
type Sampler<'a, G> = dyn Fn(&mut PlayoutRng) -> G + Sync + 'a;

/// The search for `seat`, whose turn it must be, each iteration on a deal from `sample`.
fn search_deals<G: Determinize + Guided>(
    seat: usize,
    sample: &Sampler<'_, G>,
    rng: &mut PlayoutRng,
    settings: &Settings,
) -> Result<Found, SearchError> {
    check_budget(&settings.budget)?;
    if settings.threads == 0 {
        return Err(SearchError::Settings("threads must be at least 1".into()));
    }
    if settings.rollout == Rollout::Deal && !G::DEAL_HORIZON {
        return Err(SearchError::Settings(format!(
            "rollout 'deal' is for a game whose deals are scored on their own, not {}",
            G::NAME
        )));
    }
    let began = Instant::now();
    let first = sample(rng);
    if first.to_move() != Some(seat) {
        return Err(SearchError::NotTheTurn(format!(
            "seat {seat} searches only on its own turn"
        )));
    }
    let legal = first.legal_mask();
    if legal.count_ones() == 1 {
        return Ok(Found {
            action: legal.trailing_zeros() as usize,
            visits: Vec::new(),
            values: Vec::new(),
            deviations: Vec::new(),
            iterations: 0,
            seconds: began.elapsed().as_secs_f64(),
        });
    }
    let limit = settings.budget.iterations.unwrap_or(u64::MAX);
    let threads = settings.threads as u64;
    let root = if threads == 1 {
        grow::<G>(seat, sample, first, rng, limit, began, settings)
    } else {
        // Each tree gets its own generator and an equal share of the iterations.
        let mut rngs: Vec<PlayoutRng> = (0..threads)
            .map(|_| PlayoutRng::seed_from_u64(rng.random::<u64>()))
            .collect();
        let share = |t: u64| {
            if limit == u64::MAX {
                u64::MAX
            } else {
                limit / threads + u64::from(t < limit % threads)
            }
        };
        let roots: Vec<RootStats> = std::thread::scope(|scope| {
            let handles: Vec<_> = rngs
                .iter_mut()
                .enumerate()
                .map(|(t, rng)| {
                    let first = first.clone();
                    let budget = share(t as u64);
                    scope
                        .spawn(move || grow::<G>(seat, sample, first, rng, budget, began, settings))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread does not panic"))
                .collect()
        });
        RootStats::sum(roots)
    };
    Ok(conclude(root, legal, began.elapsed().as_secs_f64()))
}

/// What a tree's root learnt: per action tried, (action, visits, total, squares), and
/// iterations.
#[derive(Debug, Default)]
struct RootStats {
    actions: Vec<(usize, u32, f64, f64)>,
    iterations: u64,
}

impl RootStats {
    fn sum(roots: Vec<RootStats>) -> RootStats {
        let mut out = RootStats::default();
        for root in roots {
            out.iterations += root.iterations;
            for (a, visits, total, squares) in root.actions {
                match out.actions.iter_mut().find(|(b, _, _, _)| *b == a) {
                    Some(entry) => {
                        entry.1 += visits;
                        entry.2 += total;
                        entry.3 += squares;
                    }
                    None => out.actions.push((a, visits, total, squares)),
                }
            }
        }
        out
    }
}

/// One tree, grown from `first` (the first sample) for at most `limit` iterations and the
/// time budget counted from `began`.
fn grow<G: Determinize + Guided>(
    seat: usize,
    sample: &Sampler<'_, G>,
    first: G,
    rng: &mut PlayoutRng,
    limit: u64,
    began: Instant,
    settings: &Settings,
) -> RootStats {
    let seconds = settings.budget.seconds.unwrap_or(f64::INFINITY);
    let mut tree = vec![Node::new(seat)];
    let mut path: Vec<u32> = Vec::new();
    // The prior's chances, written by the game where a node is expanded (`prior` > 0).
    let mut prior = [0.0f32; PRIOR_ACTIONS];
    let mut done: u64 = 0;
    // The deal a `Deal` rollout scores is the root's (every sample shares its score sheet).
    let root = (settings.rollout == Rollout::Deal).then(|| first.clone());
    let mut state = first;
    while done < limit && (done & 15 != 0 || began.elapsed().as_secs_f64() < seconds) {
        if done > 0 {
            state = sample(rng);
        }
        path.clear();
        path.push(0);
        descend(&mut tree, &mut path, &mut state, rng, settings, &mut prior);
        let returns = if let Some(root) = &root {
            state.deal_rollout(rng, root)
        } else {
            match state.returns() {
                Some(returns) => returns,
                None => match settings.rollout {
                    Rollout::Uniform => {
                        playout(&mut state, rng);
                        state.returns().expect("a played-out game is over")
                    }
                    Rollout::Guided => state.guided_rollout(rng),
                    Rollout::Learned => state.learned_rollout(rng),
                    Rollout::Solved(cards) => state
                        .solved_returns(cards)
                        .unwrap_or_else(|| state.guided_rollout(rng)),
                    Rollout::Deal => unreachable!("a deal's rollout has its root"),
                },
            }
        };
        for &n in &path {
            let node = &mut tree[n as usize];
            node.visits += 1;
            node.total += returns[usize::from(node.mover)];
        }
        // `descend` adds at least one node below the root (the root has legal actions).
        let child = &mut tree[path[1] as usize];
        let r = returns[usize::from(child.mover)];
        child.squares += r * r;
        done += 1;
        if settings.stop_early && done & 15 == 0 && settled(&tree[0], &tree, limit - done) {
            break;
        }
    }
    RootStats {
        actions: tree[0]
            .children
            .iter()
            .map(|&(a, n)| {
                let node = &tree[n as usize];
                (usize::from(a), node.visits, node.total, node.squares)
            })
            .collect(),
        iterations: done,
    }
}

/// Selection and expansion: walks `state` down the tree, adding the nodes met to `path`.
fn descend<G: Determinize + Guided>(
    tree: &mut Vec<Node>,
    path: &mut Vec<u32>,
    state: &mut G,
    rng: &mut PlayoutRng,
    settings: &Settings,
    prior: &mut [f32; PRIOR_ACTIONS],
) {
    let (exploration, weight) = (settings.exploration, settings.prior);
    let mut at = 0usize;
    while let Some(mover) = state.to_move() {
        let legal = state.legal_mask();
        let mut untried = legal;
        for &(a, _) in &tree[at].children {
            untried &= !(1u128 << a);
        }
        if untried != 0 {
            let guided = weight > 0.0 && state.prior(prior);
            let action = if guided {
                most_likely(untried, prior)
            } else {
                let k = rng.random_range(0..untried.count_ones());
                crate::game::nth_action(untried, k)
            };
            for i in 0..tree[at].children.len() {
                let (a, n) = tree[at].children[i];
                if legal >> a & 1 == 1 {
                    tree[n as usize].avail += 1;
                }
            }
            let index = tree.len() as u32;
            let mut node = Node::new(mover);
            if guided {
                node.prior = prior[action];
            }
            tree.push(node);
            tree[at].children.push((action as u16, index));
            state.apply(action);
            path.push(index);
            return;
        }
        let (mut best, mut best_score) = (usize::MAX, f64::NEG_INFINITY);
        let mut best_node = 0u32;
        let mut mask = legal;
        while mask != 0 {
            let a = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let n = tree[at].child(a).expect("every legal action is tried");
            let child = &mut tree[n as usize];
            child.avail += 1;
            let visits = f64::from(child.visits);
            let score = child.total / visits
                + exploration * (f64::from(child.avail).ln() / visits).sqrt()
                + weight * f64::from(child.prior) / (1.0 + visits);
            if score > best_score {
                (best, best_score, best_node) = (a, score, n);
            }
        }
        state.apply(best);
        at = best_node as usize;
        path.push(best_node);
    }
}

/// The action of `untried` the prior gives the most (the lowest of equals).
fn most_likely(untried: u128, prior: &[f32; PRIOR_ACTIONS]) -> usize {
    let (mut best, mut best_p) = (usize::MAX, f32::NEG_INFINITY);
    let mut mask = untried;
    while mask != 0 {
        let a = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        if prior[a] > best_p {
            (best, best_p) = (a, prior[a]);
        }
    }
    best
}

/// Whether the most visited root action leads every other by more than `remaining`.
fn settled(root: &Node, tree: &[Node], remaining: u64) -> bool {
    let (mut first, mut second) = (0u32, 0u32);
    for &(_, n) in &root.children {
        let visits = tree[n as usize].visits;
        if visits > first {
            (first, second) = (visits, first);
        } else if visits > second {
            second = visits;
        }
    }
    u64::from(first - second) > remaining
}

fn conclude(root: RootStats, legal: u128, seconds: f64) -> Found {
    let mut searched: Vec<(usize, u32, f64, f64)> = root
        .actions
        .into_iter()
        .filter(|&(a, visits, _, _)| legal >> a & 1 == 1 && visits > 0)
        .map(|(a, visits, total, squares)| {
            let n = f64::from(visits);
            let mean = total / n;
            // The returns' spread about their mean (0 for one visit; never below 0 from
            // rounding).
            (a, visits, mean, (squares / n - mean * mean).max(0.0).sqrt())
        })
        .collect();
    searched.sort_by_key(|&(a, _, _, _)| a);
    // Most visits, then the better mean; among equals the first (lowest) action, as
    // Python's max over the actions in order keeps the first.
    let action = searched
        .iter()
        .fold(
            None::<(usize, u32, f64)>,
            |best, &(a, visits, mean, _)| match best {
                Some((_, v, m)) if (v, m) >= (visits, mean) => best,
                _ => Some((a, visits, mean)),
            },
        )
        .map_or(legal.trailing_zeros() as usize, |(a, _, _)| a);
    Found {
        action,
        visits: searched.iter().map(|&(a, v, _, _)| (a, v)).collect(),
        values: searched.iter().map(|&(a, _, m, _)| (a, m)).collect(),
        deviations: searched.iter().map(|&(a, _, _, d)| (a, d)).collect(),
        iterations: root.iterations,
        seconds,
    }
}

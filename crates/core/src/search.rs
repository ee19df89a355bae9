//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
//! Whitehouse, IEEE TCIAIG 4(2), 2012) in the core: the algorithm of
//! `cardtable.bots.ismcts`, over any game with a determinizer.
//!
//! The tree belongs to one seat. Each iteration samples a deal consistent with the seat's
//! knowledge, selects down the tree among the children legal in that deal by UCB1 with
//! availability counts, expands one untried legal action, plays out the rest uniformly at
//! random, and backs up each node's mover's return. The chosen action is the most visited
//! at the root (ties: the better mean); with `stop_early` the search ends once no
//! iteration left could change that choice.

use std::time::Instant;

use crate::game::{playout, Determinize, PlayoutRng};
use rand::Rng;

/// How long a search may run: iterations, seconds, or both (whichever ends first).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub iterations: Option<u64>,
    pub seconds: Option<f64>,
}

/// The settings of a search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub budget: Budget,
    /// UCB1's exploration constant (`bots.ismcts`: 0.7).
    pub exploration: f64,
    pub stop_early: bool,
}

/// What a search found: the action chosen and, per action searched at the root, its
/// visits and mean return for the searcher.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub action: usize,
    pub visits: Vec<(usize, u32)>,
    pub values: Vec<(usize, f64)>,
    pub iterations: u64,
    pub seconds: f64,
}

/// Why a search could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchError(pub String);

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
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
    children: Vec<(u16, u32)>,
}

impl Node {
    fn new(mover: usize) -> Node {
        Node {
            mover: mover as u8,
            visits: 0,
            avail: 1,
            total: 0.0,
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
        return Err(SearchError(
            "give a search budget: iterations, seconds or both".into(),
        ));
    }
    if budget.iterations == Some(0) {
        return Err(SearchError(
            "iterations must be a positive whole number, not 0".into(),
        ));
    }
    if let Some(s) = budget.seconds {
        if !s.is_finite() || s <= 0.0 {
            return Err(SearchError(format!(
                "seconds must be a positive number, not {s}"
            )));
        }
    }
    Ok(())
}

/// Searches for the knower of `knowledge`, whose turn it must be.
pub fn search<G: Determinize>(
    knowledge: &G::Knowledge,
    rng: &mut PlayoutRng,
    settings: &Settings,
) -> Result<Found, SearchError> {
    check_budget(&settings.budget)?;
    let seat = G::knower(knowledge);
    let began = Instant::now();
    let limit = settings.budget.iterations.unwrap_or(u64::MAX);
    let seconds = settings.budget.seconds.unwrap_or(f64::INFINITY);
    let first = G::sample(knowledge, rng);
    if first.to_move() != Some(seat) {
        return Err(SearchError(format!(
            "seat {seat} searches only on its own turn"
        )));
    }
    let legal = first.legal_mask();
    if legal.count_ones() == 1 {
        return Ok(Found {
            action: legal.trailing_zeros() as usize,
            visits: Vec::new(),
            values: Vec::new(),
            iterations: 0,
            seconds: began.elapsed().as_secs_f64(),
        });
    }
    let mut tree = vec![Node::new(seat)];
    let mut path: Vec<u32> = Vec::new();
    let mut done: u64 = 0;
    let mut state = first;
    while done < limit && (done & 15 != 0 || began.elapsed().as_secs_f64() < seconds) {
        if done > 0 {
            state = G::sample(knowledge, rng);
        }
        path.clear();
        path.push(0);
        descend(&mut tree, &mut path, &mut state, rng, settings.exploration);
        if state.to_move().is_some() {
            playout(&mut state, rng);
        }
        let returns = state.returns().expect("a played-out game is over");
        for &n in &path {
            let node = &mut tree[n as usize];
            node.visits += 1;
            node.total += returns[usize::from(node.mover)];
        }
        done += 1;
        if settings.stop_early && done & 15 == 0 && settled(&tree[0], &tree, limit - done) {
            break;
        }
    }
    Ok(conclude(&tree, legal, done, began.elapsed().as_secs_f64()))
}

/// Selection and expansion: walks `state` down the tree, adding the nodes met to `path`.
fn descend<G: Determinize>(
    tree: &mut Vec<Node>,
    path: &mut Vec<u32>,
    state: &mut G,
    rng: &mut PlayoutRng,
    exploration: f64,
) {
    let mut at = 0usize;
    while let Some(mover) = state.to_move() {
        let legal = state.legal_mask();
        let mut untried = legal;
        for &(a, _) in &tree[at].children {
            untried &= !(1u128 << a);
        }
        if untried != 0 {
            let k = rng.random_range(0..untried.count_ones());
            let action = crate::game::nth_action(untried, k);
            for i in 0..tree[at].children.len() {
                let (a, n) = tree[at].children[i];
                if legal >> a & 1 == 1 {
                    tree[n as usize].avail += 1;
                }
            }
            let index = tree.len() as u32;
            tree.push(Node::new(mover));
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
            let score =
                child.total / visits + exploration * (f64::from(child.avail).ln() / visits).sqrt();
            if score > best_score {
                (best, best_score, best_node) = (a, score, n);
            }
        }
        state.apply(best);
        at = best_node as usize;
        path.push(best_node);
    }
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

fn conclude(tree: &[Node], legal: u128, iterations: u64, seconds: f64) -> Found {
    let mut searched: Vec<(usize, &Node)> = tree[0]
        .children
        .iter()
        .filter(|&&(a, _)| legal >> a & 1 == 1)
        .map(|&(a, n)| (usize::from(a), &tree[n as usize]))
        .collect();
    searched.sort_by_key(|&(a, _)| a);
    let mean = |node: &Node| node.total / f64::from(node.visits);
    // Most visits, then the better mean; among equals the first (lowest) action, as
    // Python's max over the actions in order keeps the first.
    let action = searched
        .iter()
        .fold(None::<(usize, &Node)>, |best, &(a, node)| match best {
            Some((_, b)) if (b.visits, mean(b)) >= (node.visits, mean(node)) => best,
            _ => Some((a, node)),
        })
        .map_or(legal.trailing_zeros() as usize, |(a, _)| a);
    Found {
        action,
        visits: searched.iter().map(|&(a, n)| (a, n.visits)).collect(),
        values: searched.iter().map(|&(a, n)| (a, mean(n))).collect(),
        iterations,
        seconds,
    }
}

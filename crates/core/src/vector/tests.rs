//! The batch's unit tests (`vector.rs`).

use super::*;
use crate::KnockoutWhist;

struct Owned {
    obs: Vec<f32>,
    masks: Vec<i8>,
    rewards: Vec<f32>,
    term: Vec<bool>,
    trunc: Vec<bool>,
    to_move: Vec<i64>,
    seats: Vec<i64>,
    finals: Vec<f32>,
}

impl Owned {
    fn new<G: Game + Observe + Guided>(batch: &Batch<G>) -> Owned {
        let (n, v, size) = (batch.len(), batch.views(), batch.observation_size());
        let finals = match batch.config().autoreset {
            Autoreset::SameStep => n * v * size,
            Autoreset::NextStep => 0,
        };
        Owned {
            obs: vec![0.0; n * v * size],
            masks: vec![0; n * v * G::NUM_ACTIONS],
            rewards: vec![0.0; n * v],
            term: vec![false; n],
            trunc: vec![false; n],
            to_move: vec![0; n],
            seats: vec![0; n],
            finals: vec![0.0; finals],
        }
    }

    fn buffers(&mut self) -> Buffers<'_> {
        Buffers {
            observations: &mut self.obs,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminations: &mut self.term,
            truncations: &mut self.trunc,
            to_move: &mut self.to_move,
            seats: &mut self.seats,
            final_observations: &mut self.finals,
        }
    }

    /// A legal action per game from its mask (the lowest), 0 where none.
    fn first_legal(&self, a: usize) -> Vec<i64> {
        self.masks
            .chunks(a)
            .map(|row| row.iter().position(|&x| x == 1).unwrap_or(0) as i64)
            .collect()
    }
}

fn config(games: usize, threads: usize) -> Config<KnockoutWhist> {
    Config {
        options: KnockoutWhist::options(&[("players".into(), crate::OptionValue::Int(3))]).unwrap(),
        games,
        agents: Agents::One {
            seat: None,
            opponents: vec![Opponent::Random, Opponent::Guided],
        },
        max_actions: None,
        autoreset: Autoreset::NextStep,
        threads,
        divisors: Vec::new(),
    }
}

/// The first `keep` games' observations and rewards over a run, for a batch of `games`
/// on `threads`.
fn trajectory(games: usize, threads: usize, steps: usize, keep: usize) -> Vec<Vec<f32>> {
    let mut batch = Batch::new(config(games, threads)).unwrap();
    let mut out = Owned::new(&batch);
    batch.reset_from(7, out.buffers()).unwrap();
    let size = batch.observation_size();
    let mut rows = vec![out.obs[..keep * size].to_vec()];
    for _ in 0..steps {
        let actions = out.first_legal(KnockoutWhist::NUM_ACTIONS);
        batch.step(&actions, out.buffers()).unwrap();
        rows.push(out.obs[..keep * size].to_vec());
        rows.push(out.rewards[..keep].to_vec());
    }
    rows
}

#[test]
fn a_game_is_the_same_whatever_the_batch_and_threads() {
    let one = trajectory(1, 1, 120, 1);
    assert_eq!(one, trajectory(700, 1, 120, 1));
    let all = trajectory(700, 1, 120, 700);
    assert_eq!(all, trajectory(700, 3, 120, 700)); // 3 runs of games on 3 threads
}

#[test]
fn illegal_actions_change_nothing() {
    let mut batch = Batch::new(config(4, 1)).unwrap();
    let mut out = Owned::new(&batch);
    batch.reset_from(1, out.buffers()).unwrap();
    let before: Vec<String> = (0..4).map(|i| batch.state(i).position()).collect();
    let mut actions = out.first_legal(KnockoutWhist::NUM_ACTIONS);
    let legal = actions_of(batch.state(2).legal_mask());
    actions[2] = (0..57).find(|a| !legal.contains(&(*a as usize))).unwrap();
    let error = batch.step(&actions, out.buffers()).unwrap_err();
    assert!(
        matches!(error, BatchError::Illegal { game: 2, .. }),
        "{error}"
    );
    actions[2] = 99;
    let error = batch.step(&actions, out.buffers()).unwrap_err();
    assert_eq!(
        error,
        BatchError::OutOfRange {
            game: 2,
            action: 99
        }
    );
    let after: Vec<String> = (0..4).map(|i| batch.state(i).position()).collect();
    assert_eq!(before, after);
}

#[test]
fn games_end_with_the_returns_and_deal_again() {
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let mut cfg = config(8, 2);
        cfg.autoreset = autoreset;
        let mut batch = Batch::new(cfg).unwrap();
        let mut out = Owned::new(&batch);
        batch.reset_from(3, out.buffers()).unwrap();
        let mut ended = 0;
        for _ in 0..400 {
            let actions = out.first_legal(KnockoutWhist::NUM_ACTIONS);
            batch.step(&actions, out.buffers()).unwrap();
            for i in 0..8 {
                if out.term[i] {
                    ended += 1;
                    assert!(out.rewards[i] == 1.0 || out.rewards[i] == -0.5);
                } else {
                    assert_eq!(out.rewards[i], 0.0);
                }
            }
        }
        assert!(ended > 8, "{autoreset:?}: {ended} games ended");
    }
}

#[test]
fn games_cut_short_before_the_agents_turn_are_truncated() {
    let mut cfg = config(64, 1);
    cfg.max_actions = Some(1);
    let mut batch = Batch::new(cfg).unwrap();
    let mut out = Owned::new(&batch);
    batch.reset_from(5, out.buffers()).unwrap();
    let waiting: Vec<bool> = (0..64)
        .map(|i| batch.state(i).to_move() != Some(batch.seat(i)))
        .collect();
    assert!(
        waiting.iter().any(|&w| w),
        "no game was cut short while dealt"
    );
    for (row, &w) in out.masks.chunks(57).zip(&waiting) {
        assert!(!w || row.iter().all(|&m| m == 0));
    }
    // Any value for those games: they are not played, only reported truncated.
    let mut actions = out.first_legal(KnockoutWhist::NUM_ACTIONS);
    for (i, action) in actions.iter_mut().enumerate() {
        if waiting[i] {
            *action = 999;
        }
    }
    batch.step(&actions, out.buffers()).unwrap();
    assert!(
        out.trunc.iter().all(|&t| t),
        "every game reaches one action"
    );
    assert!(out.term.iter().all(|&t| !t) && out.rewards.iter().all(|&r| r == 0.0));
}

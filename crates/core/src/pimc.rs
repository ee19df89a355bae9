//! Perfect-information Monte Carlo (PIMC; Ginsberg's GIB for Bridge, Long et al. on why it
//! works, AAAI 2010): sample deals consistent with what a seat knows, solve each exactly
//! with every card in view, and choose the action whose mean value over the deals is best.
//!
//! The solver plays each deal as if everyone could see every card, which PIMC's critics
//! call strategy fusion (it assumes it will know which deal it is in later) and
//! non-locality. In trick games with mostly public play, the same papers find those errors
//! small next to the gain of exact play, which is what the strength tables measure.
//!
//! Deals are weighed by how well they explain the other seats' plays ([`Solve::plausibility`],
//! the inference of GIB and of the Skat programs), so the mean favours the deals the play
//! points to.
//!
//! With more than one thread the deals are shared out and each thread solves its own, from
//! its own generator seeded from the caller's; the sums are added.

use std::time::Instant;

use rand::{Rng, SeedableRng};

use crate::game::{Determinize, PlayoutRng};
use crate::search::{check_seconds, SearchError};

/// A game whose positions, with every card known, can be solved exactly.
pub trait Solve: Determinize {
    /// How the other seats are assumed to play (for example max-n or paranoid).
    type Model: Copy + Send + Sync;
    /// Each legal action's value for the seat to move, ascending by action; `None` when
    /// nobody is to move.
    fn solve_values(&self, model: Self::Model) -> Option<Vec<(usize, f64)>>;
    /// How well this deal explains the other seats' plays so far, as a likelihood under a
    /// model in which a seat plays its game's policy with probability `belief` (inference;
    /// 1 where a game has none).
    fn plausibility(&self, knower: usize, belief: f64) -> f64 {
        let _ = (knower, belief);
        1.0
    }
}

/// How many deals PIMC solves: `deals`, or as many as `seconds` allow, whichever ends
/// first (at least one either way).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings<M> {
    pub deals: Option<u64>,
    pub seconds: Option<f64>,
    pub model: M,
    /// Inference: each deal weighs as the likelihood of the others' plays in it
    /// ([`Solve::plausibility`]); 0 weighs every deal alike.
    pub belief: f64,
    pub threads: usize,
}

/// What PIMC found: the action chosen, each legal action's mean value over the deals, the
/// deals solved and the seconds taken.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub action: usize,
    pub values: Vec<(usize, f64)>,
    pub deals: u64,
    pub seconds: f64,
}

/// Weighted sums of each action's values over some deals.
#[derive(Debug, Default)]
struct Sums {
    totals: Vec<(usize, f64)>,
    weight: f64,
    deals: u64,
}

impl Sums {
    fn add(&mut self, values: &[(usize, f64)], weight: f64) {
        if self.totals.is_empty() {
            self.totals = values.iter().map(|&(a, _)| (a, 0.0)).collect();
        }
        for (total, &(action, value)) in self.totals.iter_mut().zip(values) {
            debug_assert_eq!(total.0, action, "the knower's legal actions are its own");
            total.1 += weight * value;
        }
        self.weight += weight;
        self.deals += 1;
    }

    fn merge(mut self, other: Sums) -> Sums {
        if self.totals.is_empty() {
            return other;
        }
        for (total, (_, value)) in self.totals.iter_mut().zip(other.totals) {
            total.1 += value;
        }
        self.weight += other.weight;
        self.deals += other.deals;
        self
    }
}

/// Checks the settings before anything is sampled.
fn check<M>(settings: &Settings<M>) -> Result<(), SearchError> {
    if settings.deals.is_none() && settings.seconds.is_none() {
        return Err(SearchError::Settings(
            "give a budget: deals, seconds or both".into(),
        ));
    }
    if settings.deals == Some(0) {
        return Err(SearchError::Settings(
            "deals must be a positive whole number, not 0".into(),
        ));
    }
    check_seconds(settings.seconds)?;
    if settings.threads == 0 {
        return Err(SearchError::Settings("threads must be at least 1".into()));
    }
    if !(0.0..1.0).contains(&settings.belief) {
        return Err(SearchError::Settings(format!(
            "belief must be at least 0 and below 1, not {}",
            settings.belief
        )));
    }
    Ok(())
}

/// PIMC for the knower of `knowledge`, whose turn it must be.
pub fn judge<G: Solve>(
    knowledge: &G::Knowledge,
    rng: &mut PlayoutRng,
    settings: &Settings<G::Model>,
) -> Result<Judged, SearchError> {
    check(settings)?;
    let seat = G::knower(knowledge);
    let began = Instant::now();
    let first = G::sample(knowledge, rng);
    if first.to_move() != Some(seat) {
        return Err(SearchError::NotTheTurn(format!(
            "seat {seat} judges only on its own turn"
        )));
    }
    let legal = first.legal_mask();
    if legal.count_ones() == 1 {
        let action = legal.trailing_zeros() as usize;
        return Ok(Judged {
            action,
            values: Vec::new(),
            deals: 0,
            seconds: began.elapsed().as_secs_f64(),
        });
    }
    let limit = settings.deals.unwrap_or(u64::MAX);
    let threads = settings.threads as u64;
    let solve = |rng: &mut PlayoutRng, first: Option<G>, budget: u64| {
        let mut sums = Sums::default();
        let mut next = first;
        while sums.deals < budget {
            let deal = next.take().unwrap_or_else(|| G::sample(knowledge, rng));
            let values = deal
                .solve_values(settings.model)
                .expect("the knower is to move");
            sums.add(&values, deal.plausibility(seat, settings.belief));
            if settings
                .seconds
                .is_some_and(|s| began.elapsed().as_secs_f64() >= s)
            {
                break;
            }
        }
        sums
    };
    let sums = if threads == 1 {
        solve(rng, Some(first), limit)
    } else {
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
        std::thread::scope(|scope| {
            let handles: Vec<_> = rngs
                .iter_mut()
                .enumerate()
                .filter(|&(t, _)| share(t as u64) > 0)
                .map(|(t, rng)| {
                    let solve = &solve;
                    scope.spawn(move || solve(rng, None, share(t as u64)))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a solving thread does not panic"))
                .fold(Sums::default(), Sums::merge)
        })
    };
    // Every deal weighs more than nothing (a policy's likelihood never reaches 0), so the
    // weights' sum is positive.
    let weight = sums.weight;
    let values: Vec<(usize, f64)> = sums
        .totals
        .into_iter()
        .map(|(action, total)| (action, total / weight))
        .collect();
    // The best mean; ties go to the lowest action.
    let action = values
        .iter()
        .fold(None, |best: Option<(usize, f64)>, &(a, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((a, v)),
        })
        .map(|(a, _)| a)
        .expect("a legal action");
    Ok(Judged {
        action,
        values,
        deals: sums.deals,
        seconds: began.elapsed().as_secs_f64(),
    })
}

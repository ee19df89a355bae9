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

/// What PIMC found: the action chosen, each legal action's mean value over the deals and
/// the standard error of its gap to the chosen action's (0 for the chosen), the deals
/// solved and the seconds taken.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub action: usize,
    pub values: Vec<(usize, f64)>,
    pub errors: Vec<(usize, f64)>,
    pub deals: u64,
    pub seconds: f64,
}

/// Each deal's values of the legal actions and its weight, kept to measure the spread of
/// the gaps between actions: every action is valued on the same deals, so a gap's error is
/// that of the paired differences, far smaller than the two means' own.
#[derive(Debug, Default)]
struct Sums {
    actions: Vec<usize>,
    rows: Vec<(f64, Vec<f64>)>,
}

impl Sums {
    fn add(&mut self, values: &[(usize, f64)], weight: f64) {
        if self.actions.is_empty() {
            self.actions = values.iter().map(|&(a, _)| a).collect();
        }
        debug_assert!(
            self.actions.iter().zip(values).all(|(&a, &(b, _))| a == b),
            "the knower's legal actions are its own"
        );
        self.rows
            .push((weight, values.iter().map(|&(_, v)| v).collect()));
    }

    fn merge(mut self, other: Sums) -> Sums {
        if self.actions.is_empty() {
            return other;
        }
        self.rows.extend(other.rows);
        self
    }

    fn deals(&self) -> u64 {
        self.rows.len() as u64
    }

    /// Each action's weighted mean.
    fn means(&self) -> Vec<(usize, f64)> {
        let weight: f64 = self.rows.iter().map(|(w, _)| w).sum();
        self.actions
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                let total: f64 = self.rows.iter().map(|(w, v)| w * v[i]).sum();
                (a, total / weight)
            })
            .collect()
    }

    /// The standard error of each action's weighted mean gap to action `best`'s, from the
    /// deals' paired differences (the weighted variance over Kish's effective number of
    /// deals); 0 with a single deal, where there is no spread to measure.
    fn errors(&self, best: usize) -> Vec<(usize, f64)> {
        let b = self
            .actions
            .iter()
            .position(|&a| a == best)
            .expect("the best is a legal action");
        let weight: f64 = self.rows.iter().map(|(w, _)| w).sum();
        let squares: f64 = self.rows.iter().map(|(w, _)| w * w).sum();
        let effective = weight * weight / squares;
        self.actions
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                if i == b || effective <= 1.0 {
                    return (a, 0.0);
                }
                let gap = |v: &Vec<f64>| v[i] - v[b];
                let mean: f64 = self.rows.iter().map(|(w, v)| w * gap(v)).sum::<f64>() / weight;
                let spread: f64 = self
                    .rows
                    .iter()
                    .map(|(w, v)| w * (gap(v) - mean).powi(2))
                    .sum::<f64>()
                    / weight;
                // Bessel's correction for weighted deals, then the mean's error.
                let variance = spread * effective / (effective - 1.0);
                (a, (variance / effective).sqrt())
            })
            .collect()
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
            errors: Vec::new(),
            deals: 0,
            seconds: began.elapsed().as_secs_f64(),
        });
    }
    let limit = settings.deals.unwrap_or(u64::MAX);
    let threads = settings.threads as u64;
    let solve = |rng: &mut PlayoutRng, first: Option<G>, budget: u64| {
        let mut sums = Sums::default();
        let mut next = first;
        while sums.deals() < budget {
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
    let values = sums.means();
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
        errors: sums.errors(action),
        deals: sums.deals(),
        seconds: began.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::Sums;

    /// Gaps that never vary from deal to deal have no error, however much the values do;
    /// gaps that do vary have the paired differences' standard error.
    #[test]
    fn a_gaps_error_is_that_of_the_paired_differences() {
        let mut sums = Sums::default();
        for (deal, value) in [0.0, 4.0, 8.0, 2.0].into_iter().enumerate() {
            let noisy = value + if deal % 2 == 0 { 1.0 } else { -1.0 };
            sums.add(&[(3, value), (5, value - 1.0), (7, noisy)], 1.0);
        }
        assert_eq!(sums.deals(), 4);
        assert_eq!(sums.means(), vec![(3, 3.5), (5, 2.5), (7, 3.5)]);
        let errors = sums.errors(3);
        assert_eq!(errors[0], (3, 0.0));
        assert_eq!(errors[1], (5, 0.0));
        // Differences +1, -1, +1, -1: sample variance 4/3 over 4 deals.
        assert!((errors[2].1 - (4.0_f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn one_deal_measures_no_spread() {
        let mut sums = Sums::default();
        sums.add(&[(0, 1.0), (1, 0.0)], 0.5);
        assert_eq!(sums.errors(0), vec![(0, 0.0), (1, 0.0)]);
    }
}

//! The deals a search with inference draws for one seat, each weighed by how well it
//! explains the other seats' play ([`crate::inference`]), and picked by weight.

use rand::Rng;

use crate::game::{Determinize, PlayoutRng};
use crate::inference::Inference;

/// Deals sampled for one seat, each with its weight.
pub struct Pool<G> {
    deals: Vec<G>,
    /// The running sums of the weights, the last their total.
    cumulative: Vec<f64>,
}

impl<G: Determinize> Pool<G> {
    /// `inference.deals` deals from `knowledge`, weighed under `inference`'s model.
    pub fn draw(knowledge: &G::Knowledge, rng: &mut PlayoutRng, inference: &Inference) -> Self {
        let knower = G::knower(knowledge);
        let deals: Vec<G> = (0..inference.deals)
            .map(|_| G::sample(knowledge, rng))
            .collect();
        let logs: Vec<f64> = deals
            .iter()
            .map(|d| d.log_likelihood(knower, inference))
            .collect();
        Pool::weighed(deals, &logs)
    }

    fn weighed(deals: Vec<G>, logs: &[f64]) -> Self {
        // Subtracting the largest keeps the best deal's weight 1: the products of many
        // small chances would otherwise underflow.
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        let cumulative = logs
            .iter()
            .map(|l| {
                total += (l - top).exp();
                total
            })
            .collect();
        Pool { deals, cumulative }
    }

    /// A deal, each with the chance its weight gives.
    pub fn pick(&self, rng: &mut PlayoutRng) -> G {
        let total = *self.cumulative.last().expect("a pool holds a deal");
        let u = rng.random::<f64>() * total;
        let at = self.cumulative.partition_point(|&c| c <= u);
        self.deals[at.min(self.deals.len() - 1)].clone()
    }

    /// How many deals of equal weight this pool is worth: (Σw)² / Σw².
    pub fn effective_size(&self) -> f64 {
        let mut previous = 0.0;
        let (mut sum, mut squares) = (0.0, 0.0);
        for &c in &self.cumulative {
            let w = c - previous;
            previous = c;
            sum += w;
            squares += w * w;
        }
        sum * sum / squares
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{new_game, Game, OptionValue};
    use crate::knockout_whist::KnockoutWhist;
    use rand::SeedableRng;

    #[test]
    fn deals_are_picked_as_often_as_their_weights_say() {
        let options =
            KnockoutWhist::options(&[("players".to_string(), OptionValue::Int(3))]).unwrap();
        let deals: Vec<KnockoutWhist> = (0..3).map(|seed| new_game(&options, seed)).collect();
        let firsts: Vec<_> = deals.iter().map(|d| d.position()).collect();
        let pool = Pool::weighed(deals, &[0.0, 2f64.ln(), f64::NEG_INFINITY]);
        let mut rng = PlayoutRng::seed_from_u64(1);
        let mut counts = [0usize; 3];
        for _ in 0..30_000 {
            let deal = pool.pick(&mut rng).position();
            counts[firsts.iter().position(|p| *p == deal).unwrap()] += 1;
        }
        // Weights 1, 2 and 0: a third, two thirds, never.
        assert!((9_000..11_000).contains(&counts[0]), "{counts:?}");
        assert!((19_000..21_000).contains(&counts[1]), "{counts:?}");
        assert_eq!(counts[2], 0);
        assert!((pool.effective_size() - 9.0 / 5.0).abs() < 1e-12);
    }
}

//! Policy-based inference for search: the deals a search samples, weighed by how well each
//! explains what the other seats did (as PIMC programs of Skat and Bridge weigh theirs).
//!
//! A search without inference samples every deal consistent with its seat's view alike.
//! With an [`Inference`], it first draws `deals` such deals, weighs each by its likelihood
//! under the game's model of the other seats' play
//! ([`crate::game::Determinize::log_likelihood`]), and then each iteration takes one of
//! them with the chance its weight gives ([`crate::deal_pool::Pool::pick`]). A game without
//! a model weighs every deal alike, and the pool is then a plain sample.
//!
//! This module is the model's settings; [`crate::deal_pool`] draws and weighs the deals.

/// The model a search weighs its deals by. What `plays` and `choice` mean is the game's
/// (`knockout_whist/inference.rs`): the chance a seat plays its game's guided policy's
/// card, else any legal card alike; how sharply a seat that named trumps named the suit
/// the guided policy likes best.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inference {
    /// In [0, 1): 0, the plays tell nothing.
    pub plays: f64,
    /// 0 or more: 0, the choice tells nothing.
    pub choice: f64,
    /// Deals drawn and weighed a decision (at least 1).
    pub deals: usize,
}

impl Inference {
    /// Refuses a model that cannot be weighed by: `plays` 1 would give a deal that does not
    /// explain a play no chance at all, and a pool needs a deal. The error says why, for
    /// the search's settings error.
    pub fn check(&self) -> Result<(), String> {
        if !(0.0..1.0).contains(&self.plays) {
            return Err(format!(
                "belief must be at least 0 and below 1, not {}",
                self.plays
            ));
        }
        if !(self.choice >= 0.0 && self.choice.is_finite()) {
            return Err(format!("choice must be 0 or more, not {}", self.choice));
        }
        if self.deals == 0 {
            return Err("deals must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_that_cannot_weigh_is_refused() {
        let good = Inference {
            plays: 0.5,
            choice: 1.0,
            deals: 100,
        };
        assert!(good.check().is_ok());
        for bad in [
            Inference { plays: 1.0, ..good },
            Inference {
                plays: -0.1,
                ..good
            },
            Inference {
                choice: f64::NAN,
                ..good
            },
            Inference { deals: 0, ..good },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }
}

//! The guided rollout of search (`cardtable.bots.knockout_whist_rollout`): TO BE PORTED.

use super::KnockoutWhist;
use crate::game::Returns;
use crate::rollout::{Draw, Guided};

impl Guided for KnockoutWhist {
    fn guided_action<D: Draw>(&self, _draw: &mut D) -> usize {
        todo!("port cardtable.bots.knockout_whist_rollout")
    }

    fn guided_rollout<D: Draw>(&mut self, _draw: &mut D) -> Returns {
        todo!("port cardtable.bots.knockout_whist_rollout")
    }
}

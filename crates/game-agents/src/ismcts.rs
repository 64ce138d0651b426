//! Information-set Monte Carlo tree search (single observer).
//!
//! One tree is grown over the bot's information set: every iteration draws a
//! fresh determinisation of the bot's observation, walks the tree choosing
//! only among the actions legal in that determinisation (UCB1 weighted by how
//! often each action was available), adds one node, finishes with a random
//! playout and backs the result up. Chance events are drawn with the game's
//! own outcome probabilities ([`Game::sample_chance`]) and are edges of the
//! tree like any action, so the statistics below a die roll or a card draw
//! are kept per outcome.
//!
//! Reference: Cowling, Powley and Whitehouse, "Information Set Monte Carlo
//! Tree Search", IEEE TCIAIG 4(2), 2012.

use std::marker::PhantomData;

use game_traits::chance::uniform_index;
use game_traits::{Agent, Game, GameRng, PlayerId, Turn};

use crate::budget::{Budget, Meter};
use crate::playout::{playout_limit, Evaluator, Scale};

/// Settings of [`Ismcts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations (or time) per decision.
    pub budget: Budget,
    /// The UCB1 exploration constant, on returns scaled to [0, 1].
    pub exploration: f64,
    /// Cut playouts off after this many actions (a cut-off playout counts
    /// as even); `None` plays to the end.
    pub playout_limit: Option<u32>,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            budget: Budget::Iterations(1000),
            exploration: 0.7,
            playout_limit: None,
        }
    }
}

const NONE: u32 = u32::MAX;
/// The `mover` of a node reached by a chance outcome.
const CHANCE: u8 = u8::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<A> {
    /// The action that leads here; `None` at the root.
    action: Option<A>,
    /// The seat that chose `action`, or [`CHANCE`].
    mover: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// How many times this node's action was legal when its parent was
    /// passed through: the "visits" of the parent as seen from this node.
    available: u32,
    /// Sum of the mover's scaled returns.
    reward: f64,
}

impl<A> Node<A> {
    fn new(action: Option<A>, mover: u8) -> Self {
        Node {
            action,
            mover,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }
}

/// The ISMCTS bot. It keeps its buffers (tree, action lists, marks) between
/// decisions, so a long match allocates only while the tree outgrows all
/// earlier ones.
///
/// Everything it knows comes from the observation passed to
/// [`Agent::choose`]; every random draw comes from the generator passed
/// there, so with [`Budget::Iterations`] the choice is a pure function of
/// (observation, legal actions, generator state).
#[derive(Clone, Debug)]
pub struct Ismcts<G: Game> {
    config: IsmctsConfig,
    nodes: Vec<Node<G::Action>>,
    path: Vec<u32>,
    legal: Vec<G::Action>,
    /// Each player's value of the current playout.
    values: Vec<f64>,
    /// Per action id: [`Ismcts::stamp`] if legal now, `stamp + 1` if legal
    /// and already a child of the current node. Stamps avoid clearing.
    marks: Vec<u32>,
    stamp: u32,
    evaluate: Option<Evaluator<G>>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> Default for Ismcts<G> {
    fn default() -> Self {
        Self::new(IsmctsConfig::default())
    }
}

impl<G: Game> Ismcts<G> {
    /// A bot with these settings.
    pub fn new(config: IsmctsConfig) -> Self {
        Ismcts {
            config,
            nodes: Vec::new(),
            path: Vec::new(),
            legal: Vec::new(),
            values: Vec::new(),
            marks: Vec::new(),
            stamp: 0,
            evaluate: None,
            _game: PhantomData,
        }
    }

    /// With `evaluate` valuing playouts cut off by the playout limit
    /// (instead of counting them as even).
    pub fn with_evaluator(mut self, evaluate: Evaluator<G>) -> Self {
        self.evaluate = Some(evaluate);
        self
    }

    /// The settings.
    pub fn config(&self) -> &IsmctsConfig {
        &self.config
    }

    /// Runs the search from `observation` and returns, for every action of
    /// `legal` the tree tried, its visit count and mean scaled return
    /// (in [0, 1]) for the bot; the basis of [`Agent::choose`].
    pub fn search(
        &mut self,
        observation: &G::Observation,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> Vec<(G::Action, u32, f64)> {
        self.grow(observation, rng);
        let mut stats = Vec::new();
        let mut child = self.nodes.first().map_or(NONE, |root| root.first_child);
        while child != NONE {
            let node = &self.nodes[child as usize];
            if let Some(action) = node.action.filter(|a| legal.contains(a)) {
                let mean = node.reward / f64::from(node.visits.max(1));
                stats.push((action, node.visits, mean));
            }
            child = node.next_sibling;
        }
        stats
    }

    /// Grows a fresh tree from `observation` within the budget.
    fn grow(&mut self, observation: &G::Observation, rng: &mut GameRng) {
        self.nodes.clear();
        self.nodes.push(Node::new(None, CHANCE));
        let mut meter = Meter::start(self.config.budget);
        while meter.next() {
            let Ok(state) = G::determinize(observation, rng) else {
                continue;
            };
            if !matches!(state.turn(), Turn::Player(_)) {
                // Not a decision: nothing to search.
                return;
            }
            self.iterate(state, rng);
        }
    }

    /// One iteration on the determinisation `state`: select, expand one
    /// node, play out, back up.
    fn iterate(&mut self, mut state: G, rng: &mut GameRng) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        loop {
            let (next, expanded) = match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let Some(outcome) = state.sample_chance(rng) else {
                        break;
                    };
                    self.chance_child(node, outcome)
                }
                Turn::Player(p) => match self.player_child(node, &state, p, rng) {
                    Some(found) => found,
                    None => break,
                },
            };
            let action = self.nodes[next as usize]
                .action
                .expect("only the root has no action");
            state.apply_unchecked(action);
            self.path.push(next);
            node = next;
            if expanded {
                break;
            }
        }
        let limit = playout_limit(&state, self.config.playout_limit);
        game_traits::random_playout(&mut state, &mut self.legal, rng, limit);
        let scale = Scale::of::<G>(state.rules());
        self.values.clear();
        self.values
            .extend(PlayerId::all().map(|p| scale.value(&state, p, self.evaluate)));
        for &index in &self.path {
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            if let Some(value) = self.values.get(usize::from(node.mover)) {
                node.reward += value;
            }
        }
    }

    /// The child of `node` for the chance outcome `outcome`, created if
    /// new; `true` when created.
    fn chance_child(&mut self, node: u32, outcome: G::Action) -> (u32, bool) {
        let mut child = self.nodes[node as usize].first_child;
        while child != NONE {
            let c = &self.nodes[child as usize];
            if c.action == Some(outcome) {
                return (child, false);
            }
            child = c.next_sibling;
        }
        (self.add_child(node, outcome, CHANCE), true)
    }

    /// Selects (or expands) the child of `node` at a decision of `player`
    /// in `state`; `true` when expanded. `None` when nothing is legal.
    fn player_child(
        &mut self,
        node: u32,
        state: &G,
        player: PlayerId,
        rng: &mut GameRng,
    ) -> Option<(u32, bool)> {
        state.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return None;
        }
        let rules = state.rules();
        self.next_stamp(G::action_space(rules));
        let stamp = self.stamp;
        for &a in &self.legal {
            if let Some(m) = self.marks.get_mut(G::action_id(rules, a)) {
                *m = stamp;
            }
        }
        // Mark the children legal here (and count their availability), then
        // pick the best of them by UCB1 with availability counts.
        let exploration = self.config.exploration;
        let mut best = (NONE, f64::NEG_INFINITY);
        let mut child = self.nodes[node as usize].first_child;
        while child != NONE {
            let c = &mut self.nodes[child as usize];
            let action = c.action.expect("only the root has no action");
            if let Some(m) = self.marks.get_mut(G::action_id(rules, action)) {
                if *m == stamp {
                    *m = stamp + 1;
                    c.available += 1;
                    let visits = f64::from(c.visits.max(1));
                    let ucb = c.reward / visits
                        + exploration * (f64::from(c.available).ln() / visits).sqrt();
                    if ucb > best.1 {
                        best = (child, ucb);
                    }
                }
            }
            child = c.next_sibling;
        }
        let untried = self
            .legal
            .iter()
            .filter(|&&a| self.marks.get(G::action_id(rules, a)) == Some(&stamp))
            .count();
        if untried > 0 {
            let pick = uniform_index(untried, rng);
            let action = *self
                .legal
                .iter()
                .filter(|&&a| self.marks.get(G::action_id(rules, a)) == Some(&stamp))
                .nth(pick)
                .expect("pick is below the untried count");
            let mover = u8::try_from(player.index()).unwrap_or(CHANCE - 1);
            let created = self.add_child(node, action, mover);
            self.nodes[created as usize].available = 1;
            return Some((created, true));
        }
        (best.0 != NONE).then_some((best.0, false))
    }

    fn add_child(&mut self, parent: u32, action: G::Action, mover: u8) -> u32 {
        let index = u32::try_from(self.nodes.len()).expect("tree below 4 billion nodes");
        let mut node = Node::new(Some(action), mover);
        node.next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(node);
        self.nodes[parent as usize].first_child = index;
        index
    }

    /// A fresh pair of mark values, with `marks` sized for `space` ids.
    fn next_stamp(&mut self, space: usize) {
        if self.marks.len() < space {
            self.marks.resize(space, 0);
        }
        if self.stamp >= u32::MAX - 2 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.stamp = 0;
        }
        self.stamp += 2;
    }
}

impl<G: Game> Agent<G> for Ismcts<G> {
    fn name(&self) -> String {
        format!("ismcts:{}", self.config.budget)
    }

    fn choose(
        &mut self,
        observation: &G::Observation,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let stats = self.search(observation, legal, rng);
        // Most visited; ties broken by the better mean, then by list order.
        let best = stats.iter().copied().reduce(|best, s| {
            if (s.1, s.2) > (best.1, best.2) {
                s
            } else {
                best
            }
        });
        match best {
            Some((action, _, _)) => action,
            None => legal[uniform_index(legal.len(), rng)],
        }
    }
}

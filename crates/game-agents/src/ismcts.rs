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
//! A game's [`Policy`] (its heuristic, say) makes the search much stronger
//! where random play is a poor guide: it gives a prior over the bot's own
//! moves, which the root selects among with PUCT instead of UCB1, so that
//! the search spends its iterations on the moves the policy likes until
//! their values say otherwise; and it plays some of each playout's moves
//! (see [`IsmctsConfig::greed`]). `docs/strength.md` has the experiment that
//! chose these settings.
//!
//! References: Cowling, Powley and Whitehouse, "Information Set Monte Carlo
//! Tree Search", IEEE TCIAIG 4(2), 2012; Silver et al., "Mastering the game
//! of Go without human knowledge", Nature 550, 2017 (PUCT).

use std::marker::PhantomData;

use game_traits::chance::uniform_index;
use game_traits::{policy_playout, Agent, Budget, Game, GameRng, PlayerId, Policy, Turn};

use crate::meter::Meter;
use crate::playout::{playout_limit, Evaluator, Scale};
use game_traits::RuleSet;

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
    /// With a policy: how many times it is asked at the root, each answer
    /// a vote of the prior (a policy that breaks ties at random spreads
    /// its votes over equal moves). 0: no prior, UCB1 at the root.
    pub prior_samples: u32,
    /// With a prior: the PUCT constant at the root, on returns in [0, 1].
    pub prior_weight: f64,
    /// With a policy: the chance that the policy, not a uniform draw,
    /// plays each decision of a playout (0: random playouts).
    pub greed: f64,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            budget: Budget::Iterations(1000),
            exploration: 0.7,
            playout_limit: None,
            prior_samples: 8,
            prior_weight: 2.0,
            greed: 0.0,
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
    /// The policy's prior probability of `action` (root children only).
    prior: f64,
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
            prior: 0.0,
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
    policy: Option<Box<dyn Policy<G>>>,
    /// Whether the root's children carry the policy's prior.
    root_prior: bool,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> std::fmt::Debug for Ismcts<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ismcts")
            .field("config", &self.config)
            .field("evaluate", &self.evaluate.is_some())
            .field("policy", &self.policy.is_some())
            .finish_non_exhaustive()
    }
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
            policy: None,
            root_prior: false,
            _game: PhantomData,
        }
    }

    /// With `policy` giving the root's prior and playing playout moves
    /// (see [`IsmctsConfig::prior_samples`] and [`IsmctsConfig::greed`]).
    pub fn with_policy(mut self, policy: Box<dyn Policy<G>>) -> Self {
        self.policy = Some(policy);
        self
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
        self.root_prior = false;
        let mut meter = Meter::start(self.config.budget);
        while meter.next() {
            let Ok(state) = G::determinize(observation, rng) else {
                continue;
            };
            let Turn::Player(me) = state.turn() else {
                // Not a decision: nothing to search.
                return;
            };
            if self.nodes.len() == 1 {
                self.add_root_prior(&state, me, rng);
            }
            self.iterate(state, rng);
        }
    }

    /// Creates every child of the root with the policy's prior: the share
    /// of [`IsmctsConfig::prior_samples`] answers that chose it, mixed with
    /// a fifth of uniform so that no move is never tried. Every
    /// determinisation shows the bot the same observation, so one of them
    /// serves for all.
    fn add_root_prior(&mut self, state: &G, me: PlayerId, rng: &mut GameRng) {
        let samples = self.config.prior_samples;
        let Some(policy) = self.policy.as_mut().filter(|_| samples > 0) else {
            return;
        };
        state.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return;
        }
        let mut votes = vec![0u32; self.legal.len()];
        for _ in 0..samples {
            let pick = policy.act(state, &self.legal, rng);
            if let Some(i) = self.legal.iter().position(|&a| a == pick) {
                votes[i] += 1;
            }
        }
        let uniform = 0.2 / self.legal.len() as f64;
        let mover = u8::try_from(me.index()).unwrap_or(CHANCE - 1);
        let legal = std::mem::take(&mut self.legal);
        for (&action, &n) in legal.iter().zip(&votes) {
            let child = self.add_child(0, action, mover);
            self.nodes[child as usize].prior = 0.8 * f64::from(n) / f64::from(samples) + uniform;
        }
        self.legal = legal;
        self.root_prior = true;
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
        match self.policy.as_deref_mut() {
            Some(policy) if self.config.greed > 0.0 => {
                policy_playout(
                    &mut state,
                    policy,
                    self.config.greed,
                    &mut self.legal,
                    rng,
                    limit,
                );
            }
            _ => {
                game_traits::random_playout(&mut state, &mut self.legal, rng, limit);
            }
        }
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
        if node == 0 && self.root_prior {
            return Some(self.puct_root_child());
        }
        state.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return None;
        }
        let rules = state.rules();
        self.next_stamp(rules.action_space());
        let stamp = self.stamp;
        for &a in &self.legal {
            if let Some(m) = self.marks.get_mut(rules.action_id(a)) {
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
            if let Some(m) = self.marks.get_mut(rules.action_id(action)) {
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
            .filter(|&&a| self.marks.get(rules.action_id(a)) == Some(&stamp))
            .count();
        if untried > 0 {
            let pick = uniform_index(untried, rng);
            let action = *self
                .legal
                .iter()
                .filter(|&&a| self.marks.get(rules.action_id(a)) == Some(&stamp))
                .nth(pick)
                .expect("pick is below the untried count");
            let mover = u8::try_from(player.index()).unwrap_or(CHANCE - 1);
            let created = self.add_child(node, action, mover);
            self.nodes[created as usize].available = 1;
            return Some((created, true));
        }
        (best.0 != NONE).then_some((best.0, false))
    }

    /// The root's child by PUCT over the policy's prior (every child of
    /// the root exists and is legal in every determinisation); an unvisited
    /// child is valued at the root's mean so far. `true` when unvisited.
    fn puct_root_child(&mut self) -> (u32, bool) {
        let root = &self.nodes[0];
        let parent_mean = if root.visits == 0 {
            0.5
        } else {
            // The root's reward is not kept (it has no mover): the mean of
            // its children's, weighted by visits.
            let mut sum = 0.0;
            let mut child = root.first_child;
            while child != NONE {
                sum += self.nodes[child as usize].reward;
                child = self.nodes[child as usize].next_sibling;
            }
            sum / f64::from(root.visits)
        };
        let scale = self.config.prior_weight * f64::from(root.visits.max(1)).sqrt();
        let mut best = (NONE, f64::NEG_INFINITY);
        let mut child = root.first_child;
        while child != NONE {
            let c = &self.nodes[child as usize];
            let q = if c.visits == 0 {
                parent_mean
            } else {
                c.reward / f64::from(c.visits)
            };
            let score = q + scale * c.prior / (1.0 + f64::from(c.visits));
            if score > best.1 {
                best = (child, score);
            }
            child = c.next_sibling;
        }
        let visits = self.nodes[best.0 as usize].visits;
        self.nodes[best.0 as usize].available += 1;
        (best.0, visits == 0)
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

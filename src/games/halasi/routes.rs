//! Routes (`halasi.md`, "Path score"): two markets are linked when a chain of dominos (of
//! any seat), each sharing an edge with the next, runs from a domino with a half on one
//! market's centre to a domino with a half on the other's. A turn completes a route for
//! every pair of markets it links that no chain linked before; the route's length is the
//! number of dominos on the shortest chain between them (which uses a domino of this
//! turn, since none existed before). Each pair is its own route, and a chain may pass
//! through other markets.

use super::layout::{Layout, Tri};

/// A route completed: two markets (layout slots, `a < b`) and the shortest chain's
/// length in dominos.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Found {
    pub a: usize,
    pub b: usize,
    pub chain: usize,
}

fn root(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// The groups of the first `upto` dominos (edge-connected) seen from the markets: each
/// market with the groups on its centre.
pub struct Groups {
    /// Each market (slot) with the roots of the groups on its centre (a group's root is
    /// its lowest domino).
    pub markets: Vec<(usize, Vec<u32>)>,
}

impl Groups {
    /// Groups the first `upto` dominos of the layout. The whole layout's groups are the
    /// layout's own ([`Layout::group`]); fewer dominos are grouped afresh.
    pub fn of(layout: &Layout, upto: usize) -> Groups {
        if upto == layout.dominos.len() {
            return Groups::with(layout, upto, |d| layout.group(d) as u32);
        }
        let mut parent: Vec<u32> = (0..upto as u32).collect();
        for d in 0..upto {
            for e in layout.next_to(d).filter(|&e| e < upto) {
                let (x, y) = (root(&mut parent, d as u32), root(&mut parent, e as u32));
                if x != y {
                    parent[x.max(y) as usize] = x.min(y);
                }
            }
        }
        Groups::with(layout, upto, |d| root(&mut parent, d as u32))
    }

    /// The markets' groups, given each domino's root.
    fn with(layout: &Layout, upto: usize, mut root: impl FnMut(usize) -> u32) -> Groups {
        let mut markets = Vec::new();
        for m in layout.markets() {
            let mut roots = Vec::new();
            for t in Layout::centre(m) {
                if let Some((d, _)) = layout.cover(t) {
                    if d < upto {
                        let r = root(d);
                        if !roots.contains(&r) {
                            roots.push(r);
                        }
                    }
                }
            }
            markets.push((m, roots));
        }
        Groups { markets }
    }

    /// The pairs of markets (slots, `a < b`) some group links.
    pub fn linked(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, (a, ra)) in self.markets.iter().enumerate() {
            for (b, rb) in &self.markets[i + 1..] {
                if ra.iter().any(|r| rb.contains(r)) {
                    out.push(((*a).min(*b), (*a).max(*b)));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Could one more domino, touching the groups `roots` and lying on the centres of
    /// `on_centre`, link two markets that these groups do not link? (If not, it
    /// completes no route; if so, [`completed`] says which.)
    pub fn may_link(&self, roots: &[u32], on_centre: &[usize], linked: &[(usize, usize)]) -> bool {
        let reached: Vec<usize> = self
            .markets
            .iter()
            .filter(|(m, rs)| on_centre.contains(m) || rs.iter().any(|r| roots.contains(r)))
            .map(|(m, _)| *m)
            .collect();
        reached.iter().enumerate().any(|(i, &a)| {
            reached[i + 1..]
                .iter()
                .any(|&b| !linked.contains(&(a.min(b), a.max(b))))
        })
    }
}

/// The pairs of markets (slots, `a < b`) linked by chains of the first `upto` dominos.
pub fn linked(layout: &Layout, upto: usize) -> Vec<(usize, usize)> {
    Groups::of(layout, upto).linked()
}

/// The number of dominos on the shortest chain from market `a` to market `b`, using
/// every domino of the layout; `None` when they are not linked.
pub fn shortest_chain(layout: &Layout, a: usize, b: usize) -> Option<usize> {
    // A breadth-first walk over the dominos from those on `a`'s centre; a domino is
    // reached at its distance, and the walk reaches them in order of distance, so the
    // first on `b`'s centre reached is at the shortest chain's length. (A layout holds
    // fewer than 2^15 dominos: a triangle's cover is a domino and a half in 16 bits.)
    let on = |m: usize| Layout::centre(m).filter_map(|t| layout.cover(t).map(|(d, _)| d));
    // Each domino's distance (0: not reached; `TARGET`: on `b`'s centre), then one more
    // entry, reached already, that the end of a list of neighbours reads; and the queue
    // of dominos reached. On the stack for up to 255 dominos; each is queued once at most.
    const TARGET: u16 = u16::MAX;
    let n = layout.dominos.len();
    let (mut dist_here, mut queue_here) = ([0u16; 256], [0u16; 256]);
    let (mut dist_heap, mut queue_heap) = (Vec::new(), Vec::new());
    let (dist, queue): (&mut [u16], &mut [u16]) = if n < 256 {
        (&mut dist_here[..=n], &mut queue_here[..n])
    } else {
        dist_heap.resize(n + 1, 0);
        queue_heap.resize(n, 0);
        (&mut dist_heap, &mut queue_heap)
    };
    dist[n] = 1;
    for d in on(b) {
        dist[d] = TARGET;
    }
    let mut queued = 0;
    for d in on(a) {
        match dist[d] {
            TARGET => return Some(1),
            0 => {
                dist[d] = 1;
                queue[queued] = d as u16;
                queued += 1;
            }
            _ => {}
        }
    }
    let mut next = 0;
    while next < queued {
        let d = usize::from(queue[next]);
        next += 1;
        let far = dist[d] + 1;
        for e in layout.next_to_raw(d) {
            let e = usize::from(e).min(n);
            match dist[e] {
                0 => {
                    dist[e] = far;
                    queue[queued] = e as u16;
                    queued += 1;
                }
                TARGET => return Some(usize::from(far)),
                _ => {}
            }
        }
    }
    None
}

/// The routes the dominos from `first` on completed, in order of their markets' slots.
pub fn completed(layout: &Layout, first: usize) -> Vec<Found> {
    completed_since(layout, &linked(layout, first))
}

/// The routes completed since the market pairs `before` were all the layout linked, in
/// order of their markets' slots.
pub fn completed_since(layout: &Layout, before: &[(usize, usize)]) -> Vec<Found> {
    linked(layout, layout.dominos.len())
        .into_iter()
        .filter(|p| !before.contains(p))
        .filter_map(|(a, b)| shortest_chain(layout, a, b).map(|chain| Found { a, b, chain }))
        .collect()
}

/// The routes completed by a run, the dominos from `first` on (the last of the layout,
/// one edge-joined group): [`completed`], found from the run's group alone. Every other
/// group of the layout is as it was before the run, so a pair of markets linked now and
/// not before is linked through the run's group: only the markets it reaches are paired,
/// and a pair is new unless one group of the layout before the run
/// ([`Layout::group_before`]) reached both.
pub fn completed_by_run(layout: &Layout, first: usize) -> Vec<Found> {
    if first >= layout.dominos.len() {
        return Vec::new();
    }
    let group = layout.group(first);
    // A domino's group now and before the run. A run that hung no root older than
    // itself joined one group of the layout at most, whose root stays the lowest: then
    // every domino older than the run has the root it had, and no walk needs to look
    // for the roots the run hung.
    let joined_one = layout.hung_after(first).all(|h| usize::from(h) >= first);
    // And a run that joined one group at most and lies on no market's centre reaches
    // the markets that group reached, every pair of them linked before: no route.
    let on_a_market = layout.dominos[first..].iter().any(|p| {
        p.halves
            .iter()
            .any(|t| t.is_centre() && layout.territories[t.slot()].market)
    });
    if joined_one && !on_a_market {
        return Vec::new();
    }
    let hung = if joined_one {
        smallvec::SmallVec::new()
    } else {
        layout.hung_since(first)
    };
    let groups = |d: usize| {
        if !joined_one {
            return layout.groups_now_and_before(d, first, &hung);
        }
        let now = layout.group(d);
        (now, if d < first { now } else { usize::MAX })
    };
    // The markets the run's group reaches, in slot order, each with the groups on its
    // centre before the run.
    let mut reached: smallvec::SmallVec<[(usize, [usize; 6]); 8]> = smallvec::SmallVec::new();
    for m in layout.markets() {
        let mut on = false;
        let mut before = [usize::MAX; 6];
        for (k, t) in Layout::centre(m).enumerate() {
            if let Some((d, _)) = layout.cover(t) {
                let (now, then) = groups(d);
                on |= now == group;
                before[k] = then;
            }
        }
        if on {
            reached.push((m, before));
        }
    }
    let mut out = Vec::new();
    for (i, (a, roots_a)) in reached.iter().enumerate() {
        for (b, roots_b) in &reached[i + 1..] {
            let linked = roots_a
                .iter()
                .any(|r| *r != usize::MAX && roots_b.contains(r));
            if linked {
                continue;
            }
            if let Some(chain) = shortest_chain(layout, *a, *b) {
                out.push(Found {
                    a: *a,
                    b: *b,
                    chain,
                });
            }
        }
    }
    out
}

/// The layout's groups and the market pairs they link, worked out once to ask of many
/// placements of one more domino whether it could complete a route, and which routes it
/// completes: the same answers as [`completed`] without grouping the layout again for
/// each placement.
pub struct RouteCheck {
    groups: Groups,
    /// The pairs the layout's dominos link ([`Groups::linked`]).
    linked: Vec<(usize, usize)>,
    roots: Vec<u32>,
    on_centre: Vec<usize>,
}

impl RouteCheck {
    pub fn new(layout: &Layout) -> RouteCheck {
        let groups = Groups::of(layout, layout.dominos.len());
        let linked = groups.linked();
        RouteCheck {
            groups,
            linked,
            roots: Vec::with_capacity(4),
            on_centre: Vec::with_capacity(2),
        }
    }

    /// Could a domino on the free pair `a`, `b` of `layout` (the layout this check was
    /// made for) complete a route, whatever its markings? Only if it touches groups, or
    /// lies on market centres, that reach two markets no chain links yet.
    pub fn may_complete(&mut self, layout: &Layout, a: Tri, b: Tri) -> bool {
        self.roots.clear();
        self.on_centre.clear();
        for t in [a, b] {
            for nb in layout.neighbours(t) {
                if let Some((d, _)) = layout.cover(nb) {
                    let r = layout.group(d) as u32;
                    if !self.roots.contains(&r) {
                        self.roots.push(r);
                    }
                }
            }
            if t.is_centre() && layout.territories[t.slot()].market {
                self.on_centre.push(t.slot());
            }
        }
        self.groups
            .may_link(&self.roots, &self.on_centre, &self.linked)
    }

    /// The routes completed by the dominos laid after those this check was made for
    /// (`after` is that layout with more dominos): [`completed`] for them.
    pub fn completed(&self, after: &Layout) -> Vec<Found> {
        completed_since(after, &self.linked)
    }
}

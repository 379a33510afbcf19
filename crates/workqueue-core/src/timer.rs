//! The timer table: the one place that decides which deadline comes next,
//! for a controller, for a manager of several, and for the page's tape.
//!
//! As in quinn-proto, the table holds no clock: each store that keeps
//! instants (the queue's waiting heap, the reconciles' ends, the sources,
//! the scenario's adds) reports its earliest one into a slot of its kind,
//! and [`TimerTable::next`] takes the minimum at the caller's `now`. Ties
//! go to the kind handled first within an instant (the order of [`Timer`]),
//! so "which fires next" is answered here and nowhere else.

use crate::time::Instant;

/// What a deadline is for, in the order an instant handles them: at one
/// instant, an earlier kind wins the tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Timer {
    /// An instant that ran out of budget carries on (due at once).
    Resume,
    /// The waiting heap releases a key (a delay, a backoff, a bucket's wait).
    QueueDelay,
    /// A worker's reconcile ends.
    ReconcileDone,
    /// One of the scenario's own adds.
    Add,
    /// An event source fires: a watch event, an add-many or a resync.
    Source,
    /// A recorded input on the page's tape (after every event of its instant).
    Input,
}

impl Timer {
    const COUNT: usize = 6;
    const ALL: [Timer; Timer::COUNT] = [
        Timer::Resume,
        Timer::QueueDelay,
        Timer::ReconcileDone,
        Timer::Add,
        Timer::Source,
        Timer::Input,
    ];
}

/// The next thing due: when, what, and in which controller (a lone
/// controller is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub at: Instant,
    pub timer: Timer,
    pub controller: usize,
}

/// One earliest instant per [`Timer`] kind.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TimerTable {
    at: [Option<Instant>; Timer::COUNT],
}

impl TimerTable {
    /// Sets (or clears, with `None`) the deadline of `timer`.
    pub(crate) fn set(&mut self, timer: Timer, at: Option<Instant>) {
        self.at[timer as usize] = at;
    }

    /// When [`TimerTable::next`]'s deadline is due, without telling which
    /// kind it is: the driver's loop asks this at every event.
    #[inline]
    pub(crate) fn next_at(&self, now: Instant) -> Option<Instant> {
        let earliest = self.at.iter().flatten().min().map(|at| (*at).max(now));
        debug_assert_eq!(earliest, self.next(now).map(|d| d.at));
        earliest
    }

    /// The earliest deadline, none before `now` (a store may hold an
    /// instant already reached: it is due at once), ties to the kind
    /// handled first.
    pub(crate) fn next(&self, now: Instant) -> Option<Deadline> {
        // The kind's index and its instant, not a whole deadline, carried
        // through the loop: it runs once per event.
        let mut first: Option<(usize, Instant)> = None;
        for (i, at) in self.at.iter().enumerate() {
            let Some(at) = at.map(|at| at.max(now)) else {
                continue;
            };
            // Strictly earlier only: kinds are visited in tie order.
            if first.is_none_or(|(_, b)| at < b) {
                first = Some((i, at));
            }
        }
        let best = first.map(|(i, at)| Deadline {
            at,
            timer: Timer::ALL[i],
            controller: 0,
        });
        debug_assert!(best.is_none_or(|b| b.at >= now));
        best
    }
}

/// The earliest of several tables' deadlines (a manager's controllers, a
/// page's next input): ties go to the kind handled first, then to the
/// lowest controller. So the winner is a [`Timer::Source`] only if every
/// controller due then has nothing but sources.
pub(crate) fn earliest(deadlines: impl IntoIterator<Item = Deadline>) -> Option<Deadline> {
    deadlines
        .into_iter()
        .min_by_key(|d| (d.at, d.timer, d.controller))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Duration;

    fn at(ns: i64) -> Instant {
        Instant::T0 + Duration::from_nanos(ns)
    }

    #[test]
    fn earliest_kind_wins_and_ties_go_to_the_first_kind() {
        let mut t = TimerTable::default();
        assert_eq!(t.next(at(0)), None);
        t.set(Timer::Source, Some(at(5)));
        t.set(Timer::ReconcileDone, Some(at(7)));
        assert_eq!(
            t.next(at(0)).map(|d| (d.at, d.timer)),
            Some((at(5), Timer::Source))
        );
        t.set(Timer::QueueDelay, Some(at(5)));
        assert_eq!(t.next(at(0)).map(|d| d.timer), Some(Timer::QueueDelay));
        // A past instant is due now, and then ties with now's others.
        t.set(Timer::Add, Some(at(1)));
        assert_eq!(
            t.next(at(6)).map(|d| (d.at, d.timer)),
            Some((at(6), Timer::QueueDelay))
        );
        t.set(Timer::Resume, Some(at(6)));
        assert_eq!(t.next(at(6)).map(|d| d.timer), Some(Timer::Resume));
    }

    #[test]
    fn controllers_tie_by_kind_then_index() {
        let d = |ns, timer, controller| Deadline {
            at: at(ns),
            timer,
            controller,
        };
        let e = earliest([
            d(3, Timer::Source, 0),
            d(3, Timer::Add, 3),
            d(3, Timer::Add, 2),
        ]);
        assert_eq!(e.map(|e| (e.timer, e.controller)), Some((Timer::Add, 2)));
        let e = earliest([d(4, Timer::Add, 0), d(3, Timer::Source, 1)]);
        assert_eq!(e.map(|e| (e.timer, e.controller)), Some((Timer::Source, 1)));
    }
}

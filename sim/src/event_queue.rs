//! The pending events of an event loop, in time order; both loops ([`crate::engine`] and
//! [`crate::xpass`]) use it with their own event type.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// One pending event.
pub(crate) struct Entry<E> {
    /// When it runs, ns.
    pub t: u64,
    seq: u64,
    /// The event.
    pub ev: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.t == o.t && self.seq == o.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, o: &Self) -> Ordering {
        // Min-heap on (time, sequence): equal times run in scheduling order.
        (o.t, o.seq).cmp(&(self.t, self.seq))
    }
}

/// A min-heap of events on (time, scheduling order): deterministic for equal times.
pub(crate) struct EventQueue<E> {
    seq: u64,
    heap: BinaryHeap<Entry<E>>,
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue {
            seq: 0,
            heap: BinaryHeap::new(),
        }
    }

    /// Run `ev` at `t` ns, after every event already scheduled for `t`.
    pub fn schedule(&mut self, t: u64, ev: E) {
        self.seq += 1;
        self.heap.push(Entry {
            t,
            seq: self.seq,
            ev,
        });
    }

    /// The next event if it runs at or before `t_end` ns.
    pub fn pop_until(&mut self, t_end: u64) -> Option<Entry<E>> {
        if self.heap.peek()?.t > t_end {
            return None;
        }
        self.heap.pop()
    }

    /// The pending events, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Entry<E>> {
        self.heap.iter()
    }
}

//! The searches waiting for a thread: one queue per client, and the
//! clients served in turn, so that one client's many games or hints wait
//! behind each other and not in front of everyone else.
//!
//! A client is the address the limits count ([`crate::limits::client_key`]:
//! an IPv6 client by its /64). A thread takes the first search of the
//! client whose turn it is, and that client goes to the back of the line
//! if it has more waiting.

use std::{
    collections::{HashMap, VecDeque},
    net::IpAddr,
};

/// Something waiting in a [`Queue`], known by a number unique in it.
pub(super) trait Queued {
    /// The number that names it, to take it out before its turn.
    fn id(&self) -> u64;

    /// Whether it may take long: a search by nodes (the strong levels,
    /// hints), not one of a few turns deep.
    fn heavy(&self) -> bool;
}

/// One line per client, served in turn.
#[derive(Debug)]
pub(super) struct Queue<J> {
    /// What each client has waiting, oldest first; a client with nothing
    /// waiting has no entry.
    lines: HashMap<IpAddr, VecDeque<J>>,
    /// The clients with something waiting, the next one to be served first.
    turns: VecDeque<IpAddr>,
    /// How many wait in all.
    len: usize,
    /// How many of them are [heavy](Queued::heavy).
    heavy: usize,
}

impl<J> Default for Queue<J> {
    fn default() -> Queue<J> {
        Queue {
            lines: HashMap::new(),
            turns: VecDeque::new(),
            len: 0,
            heavy: 0,
        }
    }
}

impl<J: Queued> Queue<J> {
    /// How many wait in all.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// How many of those waiting are [heavy](Queued::heavy).
    pub(super) fn heavy(&self) -> usize {
        self.heavy
    }

    /// How many clients have something waiting.
    pub(super) fn clients(&self) -> usize {
        self.turns.len()
    }

    /// How many `client` has waiting.
    pub(super) fn waiting_for(&self, client: IpAddr) -> usize {
        self.lines.get(&client).map_or(0, VecDeque::len)
    }

    /// Puts `job` at the end of `client`'s line; a client that had nothing
    /// waiting joins the end of the turns.
    pub(super) fn push(&mut self, client: IpAddr, job: J) {
        self.count(&job, true);
        let line = self.lines.entry(client).or_default();
        if line.is_empty() {
            self.turns.push_back(client);
        }
        line.push_back(job);
    }

    /// The first job of the client whose turn it is; that client goes to
    /// the end of the turns if it still has some waiting.
    pub(super) fn pop(&mut self) -> Option<J> {
        let client = self.turns.pop_front()?;
        let line = self.lines.get_mut(&client)?;
        let job = line.pop_front();
        if line.is_empty() {
            self.lines.remove(&client);
        } else {
            self.turns.push_back(client);
        }
        if let Some(job) = &job {
            self.count(job, false);
        }
        job
    }

    /// Takes the job numbered `id` out of `client`'s line, if it waits
    /// there; the client keeps its place in the turns if more wait.
    pub(super) fn remove(&mut self, client: IpAddr, id: u64) -> Option<J> {
        let line = self.lines.get_mut(&client)?;
        let at = line.iter().position(|job| job.id() == id)?;
        let job = line.remove(at);
        if line.is_empty() {
            self.lines.remove(&client);
            self.turns.retain(|c| *c != client);
        }
        if let Some(job) = &job {
            self.count(job, false);
        }
        job
    }

    fn count(&mut self, job: &J, added: bool) {
        let heavy = usize::from(job.heavy());
        if added {
            self.len += 1;
            self.heavy += heavy;
        } else {
            self.len -= 1;
            self.heavy -= heavy;
        }
    }

    /// Takes every job out, in no particular order.
    pub(super) fn drain(&mut self) -> Vec<J> {
        self.turns.clear();
        self.len = 0;
        self.heavy = 0;
        self.lines.drain().flat_map(|(_, line)| line).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    #[derive(Debug, PartialEq, Eq)]
    struct Job(u64);

    impl Queued for Job {
        fn id(&self) -> u64 {
            self.0
        }

        /// Odd numbers are heavy.
        fn heavy(&self) -> bool {
            self.0 % 2 == 1
        }
    }

    fn client(n: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    fn order(queue: &mut Queue<Job>) -> Vec<u64> {
        std::iter::from_fn(|| queue.pop()).map(|j| j.0).collect()
    }

    #[test]
    fn clients_are_served_in_turn_whatever_each_has_waiting() {
        let mut queue = Queue::default();
        // Client 1 queues ten searches before clients 2 and 3 queue one.
        for id in 0..10 {
            queue.push(client(1), Job(id));
        }
        queue.push(client(2), Job(100));
        queue.push(client(3), Job(200));
        assert_eq!((queue.len(), queue.clients(), queue.heavy()), (12, 3, 5));
        assert_eq!(queue.waiting_for(client(1)), 10);
        assert_eq!(order(&mut queue)[..4], [0, 100, 200, 1]);
        assert_eq!((queue.len(), queue.clients()), (0, 0));
    }

    #[test]
    fn a_client_that_comes_back_joins_the_end_of_the_turns() {
        let mut queue = Queue::default();
        queue.push(client(1), Job(1));
        queue.push(client(1), Job(2));
        queue.push(client(2), Job(3));
        assert_eq!(queue.pop(), Some(Job(1)));
        queue.push(client(3), Job(4));
        // Client 1 was put back behind 2; 3 came after that.
        assert_eq!(order(&mut queue), [3, 2, 4]);
    }

    #[test]
    fn a_job_taken_out_leaves_the_rest_in_order() {
        let mut queue = Queue::default();
        queue.push(client(1), Job(1));
        queue.push(client(2), Job(2));
        queue.push(client(2), Job(3));
        assert_eq!(queue.remove(client(1), 1), Some(Job(1)));
        assert_eq!(queue.remove(client(1), 1), None);
        assert_eq!(queue.remove(client(2), 9), None);
        assert_eq!((queue.len(), queue.clients(), queue.heavy()), (2, 1, 1));
        assert_eq!(queue.remove(client(2), 3), Some(Job(3)));
        queue.push(client(1), Job(4));
        assert_eq!(order(&mut queue), [2, 4]);
        queue.push(client(4), Job(5));
        assert_eq!(queue.drain(), [Job(5)]);
        assert_eq!((queue.len(), queue.heavy(), queue.pop()), (0, 0, None));
    }
}

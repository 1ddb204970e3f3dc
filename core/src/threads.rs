//! Independent jobs on more than one core, where the target has threads.
//! WebAssembly in the page has none and runs them one after the other, and
//! the code that starts threads is left out of it. The answers are the same
//! either way.

/// How many jobs are worth running at once: the cores this process may use.
#[cfg(any(not(target_family = "wasm"), feature = "fast-yaml"))]
pub(crate) fn available() -> usize {
    #[cfg(not(target_family = "wasm"))]
    {
        // Asking reads the process's cgroup files: once is enough.
        static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
    #[cfg(target_family = "wasm")]
    1
}

/// `f` of each job, in the jobs' order. This thread and up to
/// [`available`]` - 1` others take jobs in turn until none is left; if no
/// thread can be started, this one does them all.
pub(crate) fn map<J: Send, R: Send>(jobs: Vec<J>, f: impl Fn(J) -> R + Sync) -> Vec<R> {
    #[cfg(not(target_family = "wasm"))]
    {
        let helpers = available().min(jobs.len()).saturating_sub(1);
        if helpers > 0 {
            return on_threads(jobs, f, helpers);
        }
    }
    jobs.into_iter().map(f).collect()
}

#[cfg(not(target_family = "wasm"))]
fn on_threads<J: Send, R: Send>(jobs: Vec<J>, f: impl Fn(J) -> R + Sync, helpers: usize) -> Vec<R> {
    let queue = std::sync::Mutex::new(jobs.into_iter().enumerate());
    let work = || {
        let mut done = Vec::new();
        loop {
            // Taken apart from `f`, which runs unlocked and so cannot poison the lock.
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((i, job)) = next else { break };
            done.push((i, f(job)));
        }
        done
    };
    let mut done = std::thread::scope(|s| {
        let started: Vec<_> =
            (0..helpers).filter_map(|_| std::thread::Builder::new().spawn_scoped(s, work).ok()).collect();
        let mut done = work();
        for helper in started {
            done.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        done
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn answers_in_the_jobs_order() {
        let jobs: Vec<usize> = (0..100).collect();
        assert_eq!(super::map(jobs, |j| j * 2), (0..100).map(|j| j * 2).collect::<Vec<_>>());
        assert_eq!(super::map(Vec::<usize>::new(), |j| j), Vec::<usize>::new());
    }

    #[test]
    fn runs_jobs_at_the_same_time() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::time::{Duration, Instant};
        if super::available() < 2 {
            return;
        }
        // Each job waits for the other to have started.
        let started = [AtomicBool::new(false), AtomicBool::new(false)];
        let met = super::map(vec![0, 1], |j| {
            started[j].store(true, Ordering::SeqCst);
            let until = Instant::now() + Duration::from_secs(5);
            while !started[1 - j].load(Ordering::SeqCst) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(1));
            }
            started[1 - j].load(Ordering::SeqCst) && Instant::now() < until
        });
        assert_eq!(met, [true, true]);
    }
}

//! Values shared by the runs of one process, computed once per key: the first caller
//! computes a value, concurrent callers of the same key wait for it instead of computing
//! it again, later callers get it at once. A failed computation leaves the key empty, so
//! the next caller tries again. Runs get the memo in their run context, never from a
//! global.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

type Slot = Arc<Mutex<Option<Arc<dyn Any + Send + Sync>>>>;

/// Values by key (any type; the key says what the value is).
#[derive(Default)]
pub struct Memo {
    slots: Mutex<HashMap<String, Slot>>,
}

impl Memo {
    /// The value of `key`, computed by `init` if no caller has computed it yet. Returns
    /// the value and whether this call computed it.
    ///
    /// ```
    /// use searchlab::util::memo::Memo;
    /// let memo = Memo::default();
    /// let (a, built) = memo.get_or_try_init("answer", || Ok(42u32)).unwrap();
    /// assert_eq!((*a, built), (42, true));
    /// let (b, built) = memo.get_or_try_init("answer", || Ok(0u32)).unwrap();
    /// assert_eq!((*b, built), (42, false));
    /// ```
    pub fn get_or_try_init<T: Any + Send + Sync>(
        &self,
        key: &str,
        init: impl FnOnce() -> anyhow::Result<T>,
    ) -> anyhow::Result<(Arc<T>, bool)> {
        let slot = self
            .slots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key.to_string())
            .or_default()
            .clone();
        let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = held.as_ref() {
            let v = Arc::clone(v)
                .downcast::<T>()
                .map_err(|_| anyhow::anyhow!("memo key {key} holds a value of another type"))?;
            return Ok((v, false));
        }
        let v = Arc::new(init()?);
        *held = Some(v.clone() as Arc<dyn Any + Send + Sync>);
        Ok((v, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrent_callers_compute_once_and_failures_retry() {
        let memo = Memo::default();
        let calls = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    let (v, _) = memo
                        .get_or_try_init("k", || {
                            calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            std::thread::sleep(std::time::Duration::from_millis(20));
                            Ok(7u64)
                        })
                        .unwrap();
                    assert_eq!(*v, 7);
                });
            }
        });
        assert_eq!(calls.into_inner(), 1);
        assert!(
            memo.get_or_try_init::<u8>("e", || anyhow::bail!("no"))
                .is_err()
        );
        assert_eq!(*memo.get_or_try_init("e", || Ok(3u8)).unwrap().0, 3);
        assert!(memo.get_or_try_init("k", || Ok(1u8)).is_err());
    }
}

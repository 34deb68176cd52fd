//! Windows: the server is put in a Job Object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE right
//! after spawn. Every process it starts joins the job by default, so terminating the job
//! ends the whole tree, and so does closing its only handle: when mcpward exits for any
//! reason, even killed, the OS closes the handle and the tree goes with it.
//!
//! Not spawned suspended: std and tokio do not expose the main thread to resume. A
//! process the server starts in the instant between spawn and assignment is outside the
//! job; nothing else is. If the job cannot be created or assigned (an old Windows, a
//! parent job that forbids nesting), only the server itself is killed.

use std::time::Duration;
use tokio::process::{Child, Command};
use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject, JOBOBJECT_BASIC_LIMIT_INFORMATION,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};

/// Before spawn: nothing to set (the job is attached after spawn).
pub fn prepare(_cmd: &mut Command, _sweep_all: bool) {}

/// The server's process tree: its job, when one could be set up.
pub struct ServerTree {
    job: Option<Job>,
}

impl ServerTree {
    /// Right after spawn.
    pub fn attach(child: &Child, _sweep_all: bool) -> ServerTree {
        let job = match (Job::new(), child.raw_handle()) {
            (Some(job), Some(process)) if job.assign(process) => Some(job),
            _ => None,
        };
        ServerTree { job }
    }

    /// After the server's stdin was closed: wait up to `grace` for it to exit, then end
    /// whatever is left of the tree (Windows has no polite signal to send first).
    pub async fn end(&self, child: &mut Child, grace: Duration) {
        let exited = tokio::time::timeout(grace, child.wait()).await.is_ok();
        if let Some(job) = &self.job {
            job.terminate();
        }
        if !exited {
            // Covers a server outside any job; harmless once the job ended it.
            let _ = child.kill().await;
        }
        let _ = child.wait().await;
    }
}

/// An owned job object handle, closed on drop (which kills every process still in it).
struct Job(HANDLE);

// SAFETY: a job handle is a kernel handle, usable from any thread; `Job` owns it alone and
// closes it exactly once, in `drop`.
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

impl Job {
    /// An unnamed job, handle not inheritable, set to kill its processes on last close.
    fn new() -> Option<Job> {
        // SAFETY: both arguments may be null (default security, no name); the result is a
        // handle or null on failure.
        let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if handle.is_null() {
            return None;
        }
        let job = Job(handle);
        let info = JOBOBJECT_EXTENDED_LIMIT_INFORMATION {
            BasicLimitInformation: JOBOBJECT_BASIC_LIMIT_INFORMATION {
                LimitFlags: JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
                ..Default::default()
            },
            ..Default::default()
        };
        let size = u32::try_from(std::mem::size_of_val(&info)).ok()?;
        // SAFETY: `info` is the structure this information class expects, alive for the
        // call, and `size` is its size.
        let ok = unsafe {
            SetInformationJobObject(
                job.0,
                JobObjectExtendedLimitInformation,
                std::ptr::from_ref(&info).cast(),
                size,
            )
        };
        (ok != 0).then_some(job)
    }

    /// `process` is the child's handle from CreateProcess (all access rights).
    fn assign(&self, process: HANDLE) -> bool {
        // SAFETY: both handles are valid for the call: the job is owned by `self`, the
        // process handle by the `Child` it was borrowed from.
        unsafe { AssignProcessToJobObject(self.0, process) != 0 }
    }

    fn terminate(&self) {
        // SAFETY: the handle is valid while `self` lives.
        unsafe {
            TerminateJobObject(self.0, 1);
        }
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the handle is owned by `self` and closed only here.
        unsafe {
            CloseHandle(self.0);
        }
    }
}

#pragma once
// SigpipeBlocked: SIGPIPE blocked on the calling thread for a scope, so that a write to a socket
// whose peer has gone fails with EPIPE instead of ending the process.

namespace c10d {

// Note [A peer's death must not end this process]
// Gloo's TCP pairs write with writev(2). When the peer has died, a write that races Gloo's
// noticing it (the event loop has not yet read the reset) raises SIGPIPE, whose default action
// ends the process: a killed rank would take the survivors with it, where their wait() should
// throw the lost connection. libtorch under Python never meets this, because Python ignores
// SIGPIPE process-wide; a C++ program keeps the default. A library must not change the process's
// signal dispositions, so instead every thread that writes to Gloo's sockets blocks SIGPIPE:
//   - the device's event-loop thread: Gloo starts it inside CreateDevice, so miniaten's device
//     factories create the device in this scope and the thread inherits the blocked mask;
//   - the group's worker threads, for their whole life: started inside the constructor's scope,
//     they inherit the mask;
//   - the caller's thread while it connects the mesh or posts a send or receive.
// writev then fails with EPIPE and Gloo raises its IoException, which the work reports as a
// c10::Error. A SIGPIPE raised on the caller's thread during the scope is taken off its pending
// set before the mask is restored, or unblocking would deliver it. Devices a program creates with
// Gloo's own CreateDevice are not covered: their loop thread has the creator's mask.
class SigpipeBlocked {
 public:
  SigpipeBlocked();
  ~SigpipeBlocked();
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  bool was_blocked_;  // the thread had SIGPIPE blocked already: nothing to undo
};

}  // namespace c10d

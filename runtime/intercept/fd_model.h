// How the race engine sees file descriptors (the model ThreadSanitizer
// uses): every descriptor number has 8 bytes of "memory". Creating a
// descriptor writes them afresh (what an earlier descriptor with the same
// number did is forgotten: the kernel ordered the two), closing writes them,
// and every other use reads them, so a close unordered with a read, write or
// dup of the same descriptor is a race on the descriptor.
//
// Descriptors also carry happens-before: data written to a pipe, socket or
// eventfd is ordered before the read that returns it. The two ends of a pipe
// or socket pair share one synchronization address, a duplicate shares its
// original's, and all sockets share one (a connect is ordered before the
// accept that takes it, and bytes sent on one socket before those received
// on its peer, which snag cannot name).
//
// Called by the interceptors of intercept/fd_*.cpp; safe with no engine
// watching (the calls do nothing then).
#pragma once

namespace snag::fd {

// A descriptor the program just got (open, dup, accept, eventfd, ...) with
// its own synchronization address.
void created(int fd);
// A socket: it synchronizes with every other socket.
void created_socket(int fd);
// The two ends of a pipe or socket pair, which synchronize with each other.
void created_pair(const int fds[2]);
// `copy`, the number the kernel chose (dup), refers to the same open file
// as `original`: a use of the original, then a new descriptor sharing its
// synchronization address.
void duplicated(int original, int copy);
// `copy`, a number the program chose (dup2, dup3), now refers to the same
// open file as `original`. The number is used whether it was open or not: a
// close of it unordered with the dup2 races either way round (run after, it
// would close the new file).
void duplicated_onto(int original, int copy);

// A use of the descriptor (read, write, connect, epoll_ctl, ...).
void used(int fd);
// Before the real close: a write of the descriptor.
void closing(int fd);

// Release before data or a connection leaves through `fd`; acquire after
// data or a connection arrived through it.
void send(int fd);
void receive(int fd);

}  // namespace snag::fd

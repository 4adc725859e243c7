// Package osfs is os.DirFS with a cheaper Open for the readers' many files.
//
// os.Open makes every file ready for the runtime's poller: on Linux it
// switches the descriptor to non-blocking, tries to register it (which a
// regular file refuses) and switches it back, five system calls beside the
// open. A results tree has thousands of small files, so Dir opens a file
// with one system call and takes the descriptor as it is (os.NewFile):
// reads of a regular file block anyway. OpenRegular opens a file only when
// it is a regular one, telling it from a FIFO or a device as it opens it:
// without blocking, then a look at the descriptor, where a look by name
// came before (two system calls where there were four, and no window for
// a file to become a FIFO between the look and the open). On Linux a file
// so opened reads what the page cache holds with a raw call, which the
// scheduler does not take the worker's processor away for, and waits for
// the disk with read(2) (see readCached). Everything else is os.DirFS's.
package osfs

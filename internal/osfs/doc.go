// Package osfs is os.DirFS with a cheaper Open for the readers' many files.
//
// os.Open makes every file ready for the runtime's poller: on Linux it
// switches the descriptor to non-blocking, tries to register it (which a
// regular file refuses) and switches it back, five system calls beside the
// open. A results tree has thousands of small files, so Dir opens a file
// with one system call and takes the descriptor as it is (os.NewFile):
// reads of a regular file block anyway. Everything else is os.DirFS's.
package osfs

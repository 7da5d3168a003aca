package gcsdb

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"time"
)

// quietFor is how long a database's files must have gone unmodified, when
// a version query reads them, for later checks to trust an unchanged file
// instead of querying. A write sets a file's modification time from a
// coarse clock (a few milliseconds on Linux): a write just after a query
// may leave size and time as they were, but not a write a second after
// the file's last one.
const quietFor = time.Second

// versionWatch remembers the state of a database's files (the main file
// and its write-ahead log) at its last version query. Any later write
// changes the size, the modification time or the identity of one of them,
// so while they stay the same the version does too.
type versionWatch struct {
	path string
	now  func() time.Time
	stat func(string) (fs.FileInfo, error)

	mu      sync.Mutex
	ok      bool // the remembered state can stand in for a query
	version string
	last    fileStamp
}

// fileStamp is the state of a database's files; wal is nil when it has no
// write-ahead log.
type fileStamp struct{ db, wal fs.FileInfo }

func newVersionWatch(path string) *versionWatch {
	return &versionWatch{path: path, now: time.Now, stat: os.Stat}
}

// stamp reads the state of the files.
func (w *versionWatch) stamp() (fileStamp, error) {
	db, err := w.stat(w.path)
	if err != nil {
		return fileStamp{}, err
	}
	wal, err := w.stat(w.path + "-wal")
	if errors.Is(err, fs.ErrNotExist) {
		return fileStamp{db: db}, nil
	}
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{db: db, wal: wal}, nil
}

// cached returns the last query's version when the files are as that
// query found them and had been quiet then.
func (w *versionWatch) cached() (string, bool) {
	w.mu.Lock()
	ok, v, last := w.ok, w.version, w.last
	w.mu.Unlock()
	if !ok {
		return "", false
	}
	st, err := w.stamp()
	if err != nil || !sameFile(st.db, last.db) || !sameFile(st.wal, last.wal) {
		return "", false
	}
	return v, true
}

// remember records version, read by a query that began at at, after the
// files were found as st.
func (w *versionWatch) remember(st fileStamp, at time.Time, version string) {
	quiet := at.Add(-quietFor)
	ok := !st.db.ModTime().After(quiet) && (st.wal == nil || !st.wal.ModTime().After(quiet))
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ok, w.version, w.last = ok, version, st
}

// sameFile reports whether a and b are the same file with the same size
// and modification time (or both absent).
func sameFile(a, b fs.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

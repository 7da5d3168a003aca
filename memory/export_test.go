package memory

import (
	"sync"
	"time"
)

// SetRenewClock makes s pace lock renewals by ticks instead of a real
// timer (each tick fires the pending renewal) and report each renewal's
// outcome on renewed.
func SetRenewClock(s *Store, ticks <-chan time.Time, renewed chan<- error) {
	s.after = func(_ time.Duration, f func()) func() bool {
		stop := make(chan struct{})
		var once sync.Once
		go func() {
			select {
			case <-ticks:
				f()
			case <-stop:
			}
		}()
		return func() bool {
			once.Do(func() { close(stop) })
			return true
		}
	}
	s.renewed = func(err error) { renewed <- err }
}

// SetRenewHook replaces what hears each renewal's outcome: hook runs on
// the renewal's goroutine while the renewal is still in flight.
func SetRenewHook(s *Store, hook func(error)) { s.renewed = hook }

// RenewalDone is closed when l's renewal has ended.
func RenewalDone(l Lease) <-chan struct{} { return l.(*Lock).kept }

// PayloadKey is the key of the shared payload of result computed from
// game data version dataVersion.
func PayloadKey(s *Store, dataVersion string, result []byte) string {
	return s.payloadKey(payloadID(dataVersion, result))
}

// StopDecompressing closes s's zstd decoder: what s reads compressed from
// then on is damaged to it, unless s serves it without decompressing.
func StopDecompressing(s *Store) { s.z.dec.Close() }

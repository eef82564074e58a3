package core

// permanentError marks an error that no retry can fix.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// MarkPermanent wraps err in the Permanent mark; nil stays nil.
func MarkPermanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

// UnmarkPermanent returns the error inside a Permanent mark on the
// outside of err, and err otherwise.
func UnmarkPermanent(err error) (error, bool) {
	if p, ok := err.(*permanentError); ok {
		return p.err, true
	}
	return err, false
}

// IsPermanent reports whether err, or an error it wraps, was marked
// permanent. It walks the chain by hand rather than with errors.As, which
// would allocate on the failure path of Record.
func IsPermanent(err error) bool {
	for err != nil {
		switch e := err.(type) {
		case *permanentError:
			return true
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				if IsPermanent(inner) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

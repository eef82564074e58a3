package shapes

import "time"

func oddEven(n int) bool { return n%2 == 0 }

// The walk under open's failure has more paths than the simulator
// follows (nine flags, each set or not, before giving up); the walk under
// send's failure is short. Running out of paths on one operation must not
// hide the retry of another.
func manyPaths(open, send func() error) error {
	var f1, f2, f3, f4, f5, f6, f7, f8, f9 bool
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown`
		if err := open(); err != nil {
			if oddEven(1) {
				f1 = true
			}
			if oddEven(2) {
				f2 = true
			}
			if oddEven(3) {
				f3 = true
			}
			if oddEven(4) {
				f4 = true
			}
			if oddEven(5) {
				f5 = true
			}
			if oddEven(6) {
				f6 = true
			}
			if oddEven(7) {
				f7 = true
			}
			if oddEven(8) {
				f8 = true
			}
			if oddEven(9) {
				f9 = true
			}
			_ = f1 || f2 || f3 || f4 || f5 || f6 || f7 || f8 || f9
			return err
		}
		if err := send(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

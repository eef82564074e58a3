package storm

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"time"
)

type style struct {
	color, dash string
}

var styles = map[string]style{
	"naive":           {"#d62728", ""},
	"backoff":         {"#ff7f0e", "9,4"},
	"jitter":          {"#8c564b", "3,3"},
	"budget":          {"#1f77b4", ""},
	"budget+breaker":  {"#17becf", "8,5"},
	"shedding":        {"#9467bd", "2,3"},
	"shedding+budget": {"#2ca02c", "12,4,2,4"},
}

var fallback = []style{{"#7f7f7f", ""}, {"#e377c2", "6,3"}, {"#000000", "1,3"}}

// WriteSVG plots the results: load amplification over time (top) and goodput
// over time (bottom), one line per policy, the stall shaded, with a legend
// that carries each policy's recovery time.
func WriteSVG(w io.Writer, cfg Config, rs []Result) error {
	const (
		width, height = 1180, 820
		left, right   = 80, 760 // plot x range
		top1, bot1    = 70, 420 // load panel
		top2, bot2    = 500, 740
		legendX       = 790
	)
	bw := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	esc := html.EscapeString

	horizon := cfg.Horizon.Seconds()
	xOf := func(t float64) float64 { return left + (right-left)*t/horizon }

	maxLoad := cfg.Capacity() / cfg.Demand()
	for _, r := range rs {
		for _, b := range r.Series {
			maxLoad = math.Max(maxLoad, b.Load)
		}
	}
	yMax1, yStep1 := niceScale(maxLoad * 1.05)
	y1 := func(v float64) float64 { return bot1 - (bot1-top1)*v/yMax1 }
	goodput, maxGood := goodputSeries(cfg, rs)
	yMax2, yStep2 := niceScale(maxGood * 1.05)
	y2 := func(v float64) float64 { return bot2 - (bot2-top2)*v/yMax2 }

	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="13">`+"\n", width, height, width, height)
	p(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	p(`<text x="%d" y="28" font-size="18" font-weight="bold">Retry storm: load at the server after a %s stall</text>`+"\n", left, fmtDur(cfg.StallFor))
	p(`<text x="%d" y="50" fill="#444">%d callers, base demand %.0f req/s = %.0f%% of capacity %.0f req/s, %s client timeout, ≤%d attempts per call, seed %d</text>`+"\n",
		left, cfg.Clients, cfg.Demand(), cfg.Load*100, cfg.Capacity(), fmtDur(cfg.Timeout), cfg.Attempts, cfg.Seed)

	stallX0, stallX1 := xOf(cfg.StallAt.Seconds()), xOf(cfg.StallEnd().Seconds())
	panel := func(top, bot float64, yMax, yStep float64, yFmt func(float64) string, ylabel string, ref []struct {
		v     float64
		label string
	}) {
		y := func(v float64) float64 { return bot - (bot-top)*v/yMax }
		p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f4cccc" opacity="0.7"/>`+"\n", stallX0, top, stallX1-stallX0, bot-top)
		p(`<text x="%.1f" y="%.1f" fill="#a33" font-size="12" text-anchor="start">stall</text>`+"\n", stallX1+3, top+14)
		for v := 0.0; v <= yMax+1e-9; v += yStep {
			p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e5e5e5"/>`+"\n", left, y(v), right, y(v))
			p(`<text x="%d" y="%.1f" text-anchor="end" fill="#333">%s</text>`+"\n", left-6, y(v)+4, yFmt(v))
		}
		tStep := niceStep(horizon / 10)
		for t := 0.0; t <= horizon+1e-9; t += tStep {
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`+"\n", xOf(t), bot, xOf(t), bot+5)
			p(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#333">%s</text>`+"\n", xOf(t), bot+19, trimFloat(t))
		}
		for _, r := range ref {
			p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#555" stroke-dasharray="2,4"/>`+"\n", left, y(r.v), right, y(r.v))
			p(`<text x="%d" y="%.1f" text-anchor="end" fill="#555" font-size="11">%s</text>`+"\n", right-4, y(r.v)-4, esc(r.label))
		}
		p(`<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="none" stroke="#333"/>`+"\n", left, top, right-left, bot-top)
		p(`<text x="%d" y="%.1f" text-anchor="middle" fill="#333">time (s)</text>`+"\n", (left+right)/2, bot+36)
		cy := (top + bot) / 2
		p(`<text x="20" y="%.1f" text-anchor="middle" transform="rotate(-90 20 %.1f)" fill="#333">%s</text>`+"\n", cy, cy, esc(ylabel))
	}

	panel(top1, bot1, yMax1, yStep1, func(v float64) string { return trimFloat(v) + "×" },
		"load: server arrivals ÷ base demand (1 s window)",
		[]struct {
			v     float64
			label string
		}{{1, "base demand (1×)"}, {cfg.Capacity() / cfg.Demand(), fmt.Sprintf("server capacity (%.2f×)", cfg.Capacity()/cfg.Demand())}})
	panel(top2, bot2, yMax2, yStep2, func(v float64) string { return fmt.Sprintf("%.0f%%", v*100) },
		"goodput: successful calls ÷ base demand (1 s)", nil)

	same := sameAs(rs)
	for i, r := range rs {
		lines := plotLines{p: p, xOf: xOf, y1: y1, y2: y2, legendX: legendX, top: top1}
		lines.policy(cfg, i, r, goodput[i], same)
	}
	footer(p, cfg, left, height)
	p("</svg>\n")
	return bw.Flush()
}

// footer writes the notes under the plot: what recovered means and the
// model.
func footer(p func(format string, a ...any), cfg Config, left, height int) {
	p(`<text x="%d" y="%d" fill="#444" font-size="12">Recovered: load ≤ %.1f× and ≥ %.0f%% of calls succeeding from then on. Shaded: the stall (%s–%s s).</text>`+"\n",
		left, height-30, HealthyLoad, HealthySuccess*100, trimFloat(cfg.StallAt.Seconds()), trimFloat(cfg.StallEnd().Seconds()))
	p(`<text x="%d" y="%d" fill="#444" font-size="12">Model: %d workers × %s mean service, plain server FIFO queue %d; gRPC bucket %g tokens, ratio %g; shedding = shed.Guard's core (LIFO, %s max queue wait).</text>`+"\n",
		left, height-12, cfg.Workers, fmtDur(cfg.ServiceTime), cfg.QueueLimit, cfg.MaxTokens, cfg.TokenRatio, fmtDur(cfg.GuardQueueWait))
}

// goodputSeries returns each policy's goodput over a sliding second, as a
// share of the base demand, and the largest of them (at least 1).
func goodputSeries(cfg Config, rs []Result) ([][]float64, float64) {
	perSec := int(time.Second / cfg.Step)
	base := cfg.Demand()
	goodput := make([][]float64, len(rs))
	maxGood := 1.0
	for i, r := range rs {
		okWin := 0
		goodput[i] = make([]float64, len(r.Series))
		for j, b := range r.Series {
			okWin += b.CallsOK
			if j >= perSec {
				okWin -= r.Series[j-perSec].CallsOK
			}
			span := float64(min(j+1, perSec)) * cfg.Step.Seconds()
			goodput[i][j] = float64(okWin) / (base * span)
			maxGood = math.Max(maxGood, goodput[i][j])
		}
	}
	return goodput, maxGood
}

// plotLines draws the policies' lines and legend entries.
type plotLines struct {
	p           func(format string, a ...any)
	xOf, y1, y2 func(float64) float64
	legendX     int
	top         float64
}

// policy draws policy number i: its load and goodput lines and its legend
// entry.
func (l plotLines) policy(cfg Config, i int, r Result, good []float64, same map[string]string) {
	esc := html.EscapeString
	st, ok := styles[r.Name]
	if !ok {
		st = fallback[i%len(fallback)]
	}
	dash := ""
	if st.dash != "" {
		dash = fmt.Sprintf(` stroke-dasharray="%s"`, st.dash)
	}
	var pts1, pts2 strings.Builder
	for j, b := range r.Series {
		t := (b.At + cfg.Step).Seconds()
		fmt.Fprintf(&pts1, "%.1f,%.1f ", l.xOf(t), l.y1(b.Load))
		fmt.Fprintf(&pts2, "%.1f,%.1f ", l.xOf(t), l.y2(good[j]))
	}
	l.p(`<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"><title>%s</title></polyline>`+"\n", st.color, dash, pts1.String(), esc(r.Name))
	l.p(`<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"><title>%s</title></polyline>`+"\n", st.color, dash, pts2.String(), esc(r.Name))

	ly := l.top + 10 + float64(i)*62
	l.p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="3"%s/>`+"\n", l.legendX, ly, l.legendX+36, ly, st.color, dash)
	name := esc(r.Name)
	if s, ok := same[r.Name]; ok {
		name += ` <tspan font-weight="normal" fill="#444">(same as ` + esc(s) + `)</tspan>`
	}
	l.p(`<text x="%d" y="%.1f" font-weight="bold">%s</text>`+"\n", l.legendX+44, ly+4, name)
	l.p(`<text x="%d" y="%.1f" fill="#444" font-size="12">%s</text>`+"\n", l.legendX+44, ly+20, esc(r.Description))
	rec := "latched: not recovered"
	if r.RecoverySeconds != nil {
		rec = fmt.Sprintf("recovers %.1f s after the stall", *r.RecoverySeconds)
	}
	line := fmt.Sprintf("peak %.2f×, %s", r.PeakAmplification, rec)
	l.p(`<text x="%d" y="%.1f" fill="#444" font-size="12">%s</text>`+"\n", l.legendX+44, ly+36, esc(line))
}

// sameAs maps a policy to an earlier one whose load series is identical.
func sameAs(rs []Result) map[string]string {
	out := map[string]string{}
	for i := range rs {
	next:
		for j := 0; j < i; j++ {
			a, b := rs[i].Series, rs[j].Series
			if len(a) != len(b) {
				continue
			}
			for k := range a {
				if a[k].Arrivals != b[k].Arrivals || a[k].CallsOK != b[k].CallsOK {
					continue next
				}
			}
			out[rs[i].Name] = rs[j].Name
			break
		}
	}
	return out
}

// niceScale returns an axis maximum ≥ v and a tick step.
func niceScale(v float64) (max, step float64) {
	step = niceStep(v / 6)
	return math.Ceil(v/step) * step, step
}

func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= v {
			return m * e
		}
	}
	return 10 * e
}

func trimFloat(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

func fmtDur(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	if d%time.Millisecond == 0 {
		return fmt.Sprintf("%d ms", d/time.Millisecond)
	}
	return d.String()
}

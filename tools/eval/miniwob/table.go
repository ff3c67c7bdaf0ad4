package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// printTable writes the per-task table and the totals.
func printTable(w io.Writer, results []result, wall time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tdemo\treplay\tsame instruction\trecord\tcompile\trun\tfailing step\tmessage")
	demoOK, replayOK, silent := 0, 0, 0
	for _, r := range results {
		if r.demo != nil && r.demo.Raw > 0 {
			demoOK++
		}
		if r.ok() {
			replayOK++
		}
		if r.silentlyWrong {
			silent++
		}
		same := "-"
		if r.replay != nil {
			same = map[bool]string{true: "yes", false: "NO"}[r.sameInstance]
		}
		msg := r.message
		if r.demoErr != "" && r.step != "record" {
			msg = strings.TrimSpace("[demo: " + r.demoErr + "] " + msg)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.task, rewardText(r.demo), rewardText(r.replay), same,
			secs(r.record), secs(r.comp), secs(r.run), r.step, oneLine("", msg, 160))
	}
	_ = tw.Flush()
	n := len(results)
	fmt.Fprintf(w, "\ndemonstrations solved: %d/%d; replays with reward 1: %d/%d (%.0f%%); silently wrong replays: %d; wall time %s\n",
		demoOK, n, replayOK, n, pct(replayOK, n), silent, wall.Round(time.Second))
}

func rewardText(r *Reward) string {
	if r == nil {
		return "none"
	}
	return fmt.Sprintf("%.2g", r.Raw)
}

func secs(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

// oneLine joins a step and its message on one line of at most n runes.
func oneLine(step, msg string, n int) string {
	s := strings.Join(strings.Fields(strings.TrimSpace(step+" "+msg)), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

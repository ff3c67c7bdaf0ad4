package explore

import (
	"fmt"
	"slices"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// TraceOf writes the path an exploration found as a trace, the way a
// recording of a person taking that path would: one event per step, each
// with its target and the snapshot of the screen it acted on, so that
// `cogflow compile` turns it into a workflow. Typed parameters are written
// with their values; a secret one is refused, since a trace never holds a
// secret.
func TraceOf(driverName string, start trace.Start, res Result, params map[string]string, secrets []string) (*trace.Trace, error) {
	if len(res.Before) != len(res.Path) {
		return nil, fmt.Errorf("explore: the result holds %d screens for %d path steps", len(res.Before), len(res.Path))
	}
	tr := trace.New(driverName)
	tr.Source = "cogflow explore"
	tr.Start = start
	tr.Snapshots = map[string]trace.Snapshot{}
	for k, s := range res.Path {
		tree := res.Before[k]
		el, err := anchor(tree, s.Target)
		if err != nil {
			return nil, fmt.Errorf("explore: step %d of the path: %w", k+1, err)
		}
		i := slices.Index(tree.Elements, el)
		snap, shot := fmt.Sprintf("s%d", k+1), driver.SnapshotOf(tree)
		tr.Snapshots[snap] = shot
		e := trace.Event{ID: fmt.Sprintf("e%d", k+1), Time: int64(k+1) * 1000, Target: trace.TargetOf(&shot, i), Snapshot: snap}
		switch action.Name(s.Op) {
		case action.Click:
			x, y := el.Bounds.Center()
			e.Kind, e.Button, e.X, e.Y = trace.KindClick, trace.ButtonLeft, x, y
			e.OffsetX, e.OffsetY = x-el.Bounds.X, y-el.Bounds.Y
		case action.Type:
			if m := paramRef.FindStringSubmatch(s.Text); m != nil && slices.Contains(secrets, m[1]) {
				return nil, fmt.Errorf("explore: step %d types the secret parameter %q; a trace never holds a secret", k+1, m[1])
			}
			v, err := fill(s.Text, params)
			if err != nil {
				return nil, fmt.Errorf("explore: step %d: %w", k+1, err)
			}
			e.Kind, e.Value, e.Text = trace.KindInput, v, v
		case action.Key:
			e.Kind, e.Key = trace.KindKeyDown, &trace.Key{Key: s.Text}
		default:
			return nil, fmt.Errorf("explore: step %d: a trace cannot say %q", k+1, s.Op)
		}
		tr.Events = append(tr.Events, e)
	}
	if err := tr.Validate(); err != nil {
		return nil, fmt.Errorf("explore: the trace of the path is invalid: %w", err)
	}
	return tr, nil
}

package runtime

// Observers sends a run's events to several observers in order (the
// journal, the progress lines, an observer).
type Observers []Observer

// Step implements Observer.
func (m Observers) Step(s StepReport) {
	for _, r := range m {
		r.Step(s)
	}
}

// Intent passes the intent to the observers that keep a write-ahead
// journal; the first error stops the step before it acts.
func (m Observers) Intent(s StepReport) error {
	for _, r := range m {
		if ir, ok := r.(IntentObserver); ok {
			if err := ir.Intent(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// IterationDone implements Observer.
func (m Observers) IterationDone(l []LoopPos) {
	for _, r := range m {
		r.IterationDone(l)
	}
}

// Interrupted implements Observer.
func (m Observers) Interrupted(at Position) {
	for _, r := range m {
		r.Interrupted(at)
	}
}

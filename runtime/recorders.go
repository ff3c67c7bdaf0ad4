package runtime

// Observers sends a run's events to several recorders in order (the
// journal, the progress lines, an observer).
type Observers []Observer

// Step implements Recorder.
func (m Observers) Step(s StepReport) {
	for _, r := range m {
		r.Step(s)
	}
}

// Intent passes the intent to the recorders that keep a write-ahead
// journal; the first error stops the step before it acts.
func (m Observers) Intent(s StepReport) error {
	for _, r := range m {
		if ir, ok := r.(IntentRecorder); ok {
			if err := ir.Intent(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// IterationDone implements Recorder.
func (m Observers) IterationDone(l []LoopPos) {
	for _, r := range m {
		r.IterationDone(l)
	}
}

// Interrupted implements Recorder.
func (m Observers) Interrupted(at Position) {
	for _, r := range m {
		r.Interrupted(at)
	}
}

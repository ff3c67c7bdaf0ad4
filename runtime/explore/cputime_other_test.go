//go:build !unix

package explore

import "time"

// cpuTime is not measured here: the benchmark's cpu-ns/step reads 0.
func cpuTime() time.Duration { return 0 }

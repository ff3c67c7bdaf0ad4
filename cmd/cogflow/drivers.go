package main

// The drivers the command can run workflows with register themselves.
import (
	_ "github.com/cogflow/cogflow/runtime/driver/android"
	_ "github.com/cogflow/cogflow/runtime/driver/browser"
	_ "github.com/cogflow/cogflow/runtime/driver/uia"
)

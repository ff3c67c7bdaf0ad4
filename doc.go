// Package cogflow is the library entry point of cogflow.
package cogflow

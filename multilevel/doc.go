// Package multilevel is the exact model of an application that
// checkpoints at several levels (node-local storage, a partner copy, the
// parallel file system: SCR, FTI, VeloC) on a fixed processor count.
package multilevel

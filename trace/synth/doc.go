// Package synth generates synthetic failure traces: N nodes that fail and
// are repaired after times of given laws (exponential, Weibull, log-normal
// or any law given by its quantile function), optionally with
// heterogeneous failure rates across nodes and with grouped failures that
// take down several nodes at once. The result is a *trace.Trace, which
// trace.WriteGeneric writes in the generic format, so that the estimators,
// the replay of evaluate and the command line can be tested on traces of
// known law.
//
// # The process
//
// Node i has a rate multiplier w_i (1 for all nodes, or, with
// Config.RateCV = c > 0, independent Gamma draws of mean 1 and coefficient
// of variation c, shape and rate 1/c²: the usual frailty model). Its up
// times are draws of Config.Up divided by w_i (accelerated time: with an
// exponential law of rate λ the node fails at rate w_i·λ), its repair times
// draws of Config.Repair. All nodes are new and up at time 0, and each
// repair renews the node: every node is an alternating renewal process.
//
// The end of an up time of node i is a failure event. With probability
// Config.Grouped it is a grouped event: its size k is drawn from the
// weights Config.Sizes (k ≥ 2), and k − 1 other nodes chosen uniformly
// among the nodes up at that instant fail with node i (all of them when
// fewer are up). Each failed node starts its own repair; the outages of
// one grouped event share a positive trace.Interval.Event label (numbered
// 1, 2, … in time order), which is how a trace records the LANL log's
// "Same Event" grouping. With exponential up times every functional node
// starts events at rate λ·w_i, each taking down k nodes of the size law:
// the batch failure process of the Markov model with events.
//
// # Heterogeneous pools
//
// With Config.Classes the nodes are split among classes of their own up
// and repair laws, in proportion to the classes' shares (Result.Class).
// DesktopGrid is the preset of a volunteer pool: log-normal availability
// intervals of mean 20 h and median 8 h, 35 % of the hosts available
// 99.5 % of the time and the others so that the pool is available 65 % of
// the time (Kondo, Andrzejak and Anderson, Grid 2008, as quoted by Nguyen
// et al., seed 002, section III; docs/model.md, section 13).
//
// Draws use the caller's seeded math/rand/v2 generator by inversion
// (Quantile of a uniform), so a seed gives the same trace on every
// platform and Go version that keeps math/rand/v2's PCG stream.
package synth

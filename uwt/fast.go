package uwt

func newFastSource(lambda, theta float64) rowSource { return newExactSource(lambda, theta) }

public import ArgumentParser
public import BenchmarkClients

extension ClientKind: ExpressibleByArgument {}

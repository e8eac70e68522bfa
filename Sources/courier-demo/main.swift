import ArgumentParser

print("hi")

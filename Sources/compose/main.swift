import Compositor
print("compose")

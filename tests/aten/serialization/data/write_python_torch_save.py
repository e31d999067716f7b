# Writes python_state_dict.pt, the file Pickle_test.cpp reads: Python's torch.save of a module's
# state_dict (an OrderedDict with _metadata, Note [Python's state_dict]), as PyTorch 1.13 writes
# it. Each parameter holds arange(numel) * (its index + 1), so the test knows the values.
# Regenerate (from this folder; Debian's python3-torch) with
#   /usr/bin/python3 write_python_torch_save.py
import torch

m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(m.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).view_as(p) * (i + 1))
torch.save(m.state_dict(), "python_state_dict.pt")

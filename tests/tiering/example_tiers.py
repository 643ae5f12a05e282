"""The seed's three device tiers and the "IO Optimization Example" slide's flash tier and objects, for the tests
of the cost model (test_costmodel.py, test_costmodel_arrays.py) and the optimiser (test_optimizer.py)."""

from __future__ import annotations

from decimal import Decimal

from apps.tiering.costmodel import DeviceTier, StorageObject

HI_CAP = DeviceTier(name="hi-cap disk", device_cost_usd=Decimal(250), device_gb=1000, device_iops=100)
FAST = DeviceTier(name="fast disk", device_cost_usd=Decimal(600), device_gb=300, device_iops=300)
FLASH_80 = DeviceTier(name="flash", device_cost_usd=Decimal(2400), device_gb=80, device_iops=30000)
# The "IO Optimization Example" slide prices a 320 GB flash device at $9,600.
FLASH_320 = DeviceTier(name="flash", device_cost_usd=Decimal(9600), device_gb=320, device_iops=30000)
SEED_TIERS = (HI_CAP, FAST, FLASH_80)
OBJECT_A = StorageObject("A", iops=10000, gb=300)
OBJECT_B = StorageObject("B", iops=4000, gb=600)

"""rules/battle"""

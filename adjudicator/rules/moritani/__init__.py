"""rules/moritani"""
